import Foundation
import XCTest
@testable import ObjectFiles

/// Replays every committed fuzz seed (and any crash input added after a fix) through the same
/// checks as the libFuzzer harness, so CI covers them without libFuzzer.
final class FuzzSeedReplayTests: XCTestCase {
    func testEverySeedParsesOrFailsCleanly() throws {
        var count = 0
        for folder in ["macho", "elf"] {
            let directory = Fixtures.fuzzSeeds.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            XCTAssertFalse(names.isEmpty, folder)
            for name in names where !name.hasPrefix(".") && !name.hasSuffix(".md") {
                let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                count += 1
                if let map = try? ObjectFileParser.parse(MemoryByteSource(bytes)) {
                    assertMapInvariants(map, size: bytes.count)
                }
                var decoded: [UInt8] = []
                var runs: [UTF16Text.Run] = []
                bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: 4, into: &decoded, runs: &runs) }
                assertUTF16Runs(runs, decoded: decoded, bytes: bytes, name)
            }
        }
        XCTAssertGreaterThanOrEqual(count, 8)
    }

    /// The harness's UTF-16 checks: runs in source order, not overlapping, at least the
    /// minimum long, each followed by its newline, every decoded byte a text byte of a code
    /// unit in the input (little-endian: before the unit's zero; big-endian: after it).
    private func assertUTF16Runs(_ runs: [UTF16Text.Run], decoded: [UInt8], bytes: [UInt8], _ name: String) {
        var sourceEnd = 0, decodedEnd = 0
        for run in runs {
            XCTAssertGreaterThanOrEqual(run.decodedRange.count, 4, name)
            XCTAssertEqual(run.decodedRange.lowerBound, decodedEnd, name)
            XCTAssertGreaterThanOrEqual(run.sourceOffset, sourceEnd, name)
            decodedEnd = run.decodedRange.upperBound + 1
            sourceEnd = run.sourceOffset + 2 * run.decodedRange.count
            guard decodedEnd <= decoded.count, sourceEnd <= bytes.count else { return XCTFail("run outside its buffers: \(name)") }
            XCTAssertEqual(decoded[run.decodedRange.upperBound], 0x0A, name)
            for index in run.decodedRange {
                let unit = run.sourceOffset(ofDecoded: index)
                let (lo, hi, text) = (bytes[unit], bytes[unit + 1], decoded[index])
                XCTAssertTrue(text == 0x09 || (0x20...0x7e).contains(text), name)
                XCTAssertTrue((hi == 0 && lo == text) || (lo == 0 && hi == text), name)
            }
        }
        XCTAssertEqual(decodedEnd, decoded.count, name)
    }
}

/// The crafted fuzz seeds (the ones no compiler here can make: MH_EXECUTE, FAT_MAGIC_64,
/// big-endian Mach-O, hand-made ELF, ELF without section headers) must be what the test
/// writers produce today; a normal run checks the committed files, and
///
///   KEYSHAPE_WRITE_FUZZ_SEEDS=1 swift test --filter FuzzSeedWriter
///
/// regenerates them after a writer changes.
final class FuzzSeedWriter: XCTestCase {
    func testCraftedSeedsMatchTheWriters() throws {
        let regenerate = ProcessInfo.processInfo.environment["KEYSHAPE_WRITE_FUZZ_SEEDS"] == "1"
        let cstrings = Canary.cString("FuzzSeed")
        let exe64 = MachOWriter.executable(cstrings: cstrings, ustring: [0x41, 0, 0x42, 0, 0, 0], data: [1, 2, 3, 4],
                                           linkedit: Array("_main\0".utf8)).build().bytes
        let ppc = MachOWriter.executable(is64: false, bigEndian: true, cpuType: 18, cstrings: cstrings,
                                         data: [1, 2], linkedit: [0, 0, 0, 0]).build().bytes
        let fat64 = MachOWriter.fat([(0x0100_000c, 2, exe64), (18, 0, ppc)], wide: true, alignLog2: 4).bytes
        var stripped = try Fixtures.bytes("elf/keys-i386")
        stripped.put32(0, at: 32)
        stripped.put16(0, at: 48)
        stripped.put16(0, at: 50)
        let seeds: [(String, [UInt8])] = [
            ("macho/writer-executable-arm64", exe64),
            ("macho/writer-executable-ppc", ppc),
            ("macho/writer-fat64", fat64),
            ("elf/writer-elf32be", ELFWriter.sample(is64: false, bigEndian: true, machine: 8).build().bytes),
            ("elf/writer-elf64", ELFWriter.sample(is64: true, bigEndian: false, machine: 62).build().bytes),
            ("elf/no-section-headers-i386", stripped),
        ]
        for (name, bytes) in seeds {
            let url = Fixtures.fuzzSeeds.appendingPathComponent(name)
            if regenerate {
                try Data(bytes).write(to: url)
            } else {
                XCTAssertEqual(try Data(contentsOf: url), Data(bytes), "\(name) is stale: regenerate with KEYSHAPE_WRITE_FUZZ_SEEDS=1")
            }
        }
    }
}
