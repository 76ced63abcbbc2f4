import XCTest
import TestSupport
@testable import ObjectFiles

/// Thousands of fixed-seed mutations of every fixture and crafted file: parse may throw, but
/// must never trap, hang or hand back a map whose regions or locate answers leave the file.
final class MutationTests: XCTestCase {
    private func corpus() throws -> [(String, [UInt8])] {
        var files = try Fixtures.allBinaries().map { ($0, try Fixtures.bytes($0)) }
        let exe = MachOWriter.executable(cstrings: Canary.cString("Mutation"),
                                         data: [1, 2, 3, 4], linkedit: [UInt8](repeating: 7, count: 32)).build().bytes
        files.append(("writer/executable64", exe))
        files.append(("writer/executable32be", MachOWriter.executable(is64: false, bigEndian: true, cpuType: 18,
                                                                      cstrings: [65, 0], data: [1], linkedit: [2]).build().bytes))
        files.append(("writer/fat64", MachOWriter.fat([(0x0100_000c, 0, exe), (7, 3, files[0].1)], wide: true).bytes))
        files.append(("writer/elf32be", ELFWriter.sample(is64: false, bigEndian: true, machine: 8).build().bytes))
        files.append(("writer/elf64", ELFWriter.sample(is64: true, bigEndian: false, machine: 62).build().bytes))
        return files
    }

    func testMutatedFilesNeverTrap() throws {
        // A fixed seed, so a mutation that finds a bug reproduces exactly.
        var rng = SeededGenerator(seed: 0x6b65_7973_6861_7065)  // "keyshape"
        let interesting: [UInt64] = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0xff00, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff,
                                     0x7fff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff]
        var parsed = 0, failed = 0
        for (name, original) in try corpus() {
            for _ in 0..<3000 {
                var bytes = original
                switch rng.next() % 4 {
                case 0:  // truncate
                    bytes.removeLast(Int(rng.next() % UInt64(bytes.count + 1)))
                case 1:  // flip a few bits, mostly in the headers where structure lives
                    for _ in 0..<(1 + rng.next() % 4) {
                        let limit = rng.next() % 2 == 0 ? min(bytes.count, 512) : bytes.count
                        bytes[Int(rng.next() % UInt64(limit))] ^= UInt8(1 << (rng.next() % 8))
                    }
                case 2:  // overwrite an aligned word with an edge value, either byte order
                    let width = [2, 4, 8][Int(rng.next() % 3)]
                    let limit = min(bytes.count, 1024) / width
                    let at = Int(rng.next() % UInt64(limit)) * width
                    let value = interesting[Int(rng.next() % UInt64(interesting.count))]
                    let big = rng.next() % 2 == 0
                    for i in 0..<width {
                        bytes[at + i] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (big ? width - 1 - i : i)))
                    }
                default:  // random bytes over a stretch
                    let at = Int(rng.next() % UInt64(bytes.count))
                    for i in at..<min(bytes.count, at + 1 + Int(rng.next() % 16)) { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
                }
                do {
                    let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
                    parsed += 1
                    checkQuietly(map, size: bytes.count, name: name)
                } catch is ObjectFileError {
                    failed += 1
                }
            }
        }
        // Both paths must have been exercised, or the mutations are not reaching the parser.
        XCTAssertGreaterThan(parsed, 1000)
        XCTAssertGreaterThan(failed, 1000)
    }

    /// assertMapInvariants without its per-probe assertions' cost; reports the first breach only.
    private func checkQuietly(_ map: ObjectMap, size: Int, name: String) {
        for slice in map.slices {
            guard slice.fileRange.lowerBound >= 0, slice.fileRange.upperBound <= size else {
                return XCTFail("\(name): slice \(slice.fileRange) outside \(size)")
            }
            for region in slice.sections + slice.segments
            where region.fileRange.isEmpty || region.fileRange.lowerBound < slice.fileRange.lowerBound
                || region.fileRange.upperBound > slice.fileRange.upperBound {
                return XCTFail("\(name): region \(region.fileRange) outside slice \(slice.fileRange)")
            }
        }
        for offset in [-1, 0, size / 2, size - 1, size] {
            guard let hit = map.locate(offset) else { continue }
            if offset < 0 || offset >= size || !hit.slice.fileRange.contains(offset)
                || !(hit.region?.fileRange.contains(offset) ?? true) {
                return XCTFail("\(name): locate(\(offset)) out of bounds")
            }
        }
    }
}
