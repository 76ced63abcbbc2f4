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
                var runs: [UTF16Runs.Run] = []
                bytes.withUnsafeBytes { UTF16Runs.extract($0, baseOffset: 0, minLength: 4, into: &decoded, runs: &runs) }
                for run in runs {
                    for i in run.decodedRange {
                        let offset = run.fileOffset(ofDecoded: i)
                        XCTAssertEqual(bytes[offset], decoded[i], name)
                        XCTAssertEqual(bytes[offset + 1], 0, name)
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(count, 8)
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
