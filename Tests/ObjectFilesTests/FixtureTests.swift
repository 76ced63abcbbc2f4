import Foundation
import XCTest
@testable import ObjectFiles

/// The committed fixtures against expected.tsv, which make-fixtures.sh computed with the LLVM
/// tools: an independent reading of the same files.
final class FixtureTests: XCTestCase {
    func testEveryPlantedStringIsLocatedLikeLLVMSeesIt() throws {
        let expectations = try Fixtures.expectations()
        XCTAssertGreaterThanOrEqual(expectations.count, 60)
        var maps: [String: ObjectMap] = [:]
        for row in expectations {
            if maps[row.fixture] == nil {
                maps[row.fixture] = try ObjectFileParser.parse(MemoryByteSource(try Fixtures.bytes(row.fixture)))
            }
            let map = try XCTUnwrap(maps[row.fixture])
            let context = "\(row.fixture) \(row.arch) \(row.label)"
            XCTAssertEqual(map.format.rawValue, row.format, context)
            let hit = try XCTUnwrap(map.locate(row.fileOffset), context)
            XCTAssertEqual(hit.slice.arch, row.arch, context)
            XCTAssertEqual(hit.slice.format.rawValue, row.format, context)
            XCTAssertEqual(hit.region?.name, row.section, context)
            XCTAssertEqual(hit.virtualAddress, row.virtualAddress, context)
        }
        for (name, map) in maps {
            XCTAssertEqual(map.warnings, [], name)
        }
    }

    /// The case from the field: `strings -a` on an arm64 iOS object shows a 55-character key;
    /// keyshape must say it is in __TEXT,__cstring, and where.
    func testFieldCaseKeyInArm64IOSObject() throws {
        let bytes = try Fixtures.bytes("macho/keys-arm64-ios.o")
        let row = try XCTUnwrap(try Fixtures.expectations().first { $0.fixture == "macho/keys-arm64-ios.o" && $0.label == "field-key" })
        // The planted literal really is a 55-byte NUL-terminated string at that offset.
        let literal = bytes[row.fileOffset...].prefix { $0 != 0 }
        XCTAssertEqual(literal.count, 55)
        XCTAssertTrue(literal.starts(with: Array("sk_live_".utf8)))

        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.format, .machO)
        XCTAssertFalse(map.isFat)
        let hit = try XCTUnwrap(map.locate(row.fileOffset))
        XCTAssertEqual(hit.slice.arch, "arm64")
        XCTAssertEqual(hit.region?.name, "__TEXT,__cstring")
        XCTAssertEqual(hit.virtualAddress, row.virtualAddress)
        // Every byte of the key is in the same section.
        XCTAssertEqual(map.locate(row.fileOffset + 54)?.region?.name, "__TEXT,__cstring")
    }

    func testObjectFileSectionsAreNamedBySectionSegname() throws {
        let map = try ObjectFileParser.parse(MemoryByteSource(try Fixtures.bytes("macho/keys-x86_64-macos.o")))
        let names = Set(map.slices[0].sections.map(\.name))
        XCTAssertTrue(names.isSuperset(of: ["__TEXT,__text", "__TEXT,__cstring", "__TEXT,__const", "__DATA,__data"]), "\(names)")
        // MH_OBJECT has one unnamed segment; it gets a positional name.
        XCTAssertEqual(map.slices[0].segments.map(\.name), ["SEGMENT[0]"])
    }

    func testArchitectureNames() throws {
        let cases = [
            "macho/keys-arm64-ios.o": "arm64", "macho/keys-arm64e-ios.o": "arm64e",
            "macho/keys-x86_64-macos.o": "x86_64", "macho/keys-armv7-ios.o": "armv7",
            "macho/keys-i386-macos.o": "i386", "elf/keys-x86_64": "x86_64", "elf/keys-i386": "i386",
            "elf/keys-ppc64": "ppc64", "elf/keys-mips": "mips", "elf/keys-aarch64.o": "arm64",
        ]
        for (fixture, arch) in cases {
            let map = try ObjectFileParser.parse(MemoryByteSource(try Fixtures.bytes(fixture)))
            XCTAssertEqual(map.slices.map(\.arch), [arch], fixture)
        }
        XCTAssertEqual(MachOParser.archName(cpuType: 0x0100_0007, cpuSubtype: 8), "x86_64h")
        XCTAssertEqual(MachOParser.archName(cpuType: 12, cpuSubtype: 11), "armv7s")
        XCTAssertEqual(MachOParser.archName(cpuType: 12, cpuSubtype: 12), "armv7k")
        XCTAssertEqual(MachOParser.archName(cpuType: 0x0200_000c, cpuSubtype: 1), "arm64_32")
        XCTAssertEqual(MachOParser.archName(cpuType: 0x0100_000c, cpuSubtype: 0x8000_0002), "arm64e")
        XCTAssertEqual(MachOParser.archName(cpuType: 99, cpuSubtype: 0), "cputype-99")
        XCTAssertEqual(ELFParser.archName(machine: 243, is64: true, bigEndian: false), "riscv64")
        XCTAssertEqual(ELFParser.archName(machine: 21, is64: true, bigEndian: false), "ppc64le")
    }

    func testFatFileReportsEverySliceWithAbsoluteOffsets() throws {
        let bytes = try Fixtures.bytes("macho/keys-universal.o")
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.format, .machO)
        XCTAssertTrue(map.isFat)
        XCTAssertEqual(Set(map.slices.compactMap(\.arch)), ["arm64", "x86_64", "armv7", "i386"])
        assertMapInvariants(map, size: bytes.count)

        // Each slice is the same object as the thin fixture, shifted by its slice offset.
        let thin = ["arm64": "macho/keys-arm64-ios.o", "x86_64": "macho/keys-x86_64-macos.o",
                    "armv7": "macho/keys-armv7-ios.o", "i386": "macho/keys-i386-macos.o"]
        for slice in map.slices {
            let thinBytes = try Fixtures.bytes(try XCTUnwrap(thin[slice.arch ?? ""]))
            XCTAssertEqual(Array(bytes[slice.fileRange]), thinBytes)
            let thinMap = try ObjectFileParser.parse(MemoryByteSource(thinBytes))
            let shifted = thinMap.slices[0].sections.map {
                ObjectSection(name: $0.name, fileRange: ($0.fileRange.lowerBound + slice.fileRange.lowerBound)..<($0.fileRange.upperBound + slice.fileRange.lowerBound),
                              virtualAddress: $0.virtualAddress)
            }
            XCTAssertEqual(slice.sections, shifted, slice.arch ?? "")
            XCTAssertGreaterThan(slice.fileRange.lowerBound, 0)
        }
        // Bytes of the fat header belong to no slice.
        XCTAssertNil(map.locate(0))
    }

    func testELFSectionsAndSegments() throws {
        let map = try ObjectFileParser.parse(MemoryByteSource(try Fixtures.bytes("elf/libkeys-x86_64.so")))
        let slice = map.slices[0]
        let names = slice.sections.map(\.name)
        for expected in [".dynstr", ".rodata", ".data", ".text"] { XCTAssertTrue(names.contains(expected), expected) }
        XCTAssertFalse(names.contains(".bss"), "NOBITS sections have no file bytes")
        XCTAssertTrue(slice.segments.allSatisfy { $0.name.hasPrefix("LOAD[") })
        XCTAssertGreaterThanOrEqual(slice.segments.count, 2)
        // Non-ALLOC sections are unmapped.
        let comment = try XCTUnwrap(slice.sections.first { $0.name == ".comment" || $0.name == ".shstrtab" })
        XCTAssertNil(comment.virtualAddress)
        XCTAssertNil(map.locate(comment.fileRange.lowerBound)?.virtualAddress)
    }

    func testSniffRecognisesEveryFixtureByMagic() throws {
        for name in try Fixtures.allBinaries() {
            let bytes = try Fixtures.bytes(name)
            let expected: ObjectFormat = name.hasPrefix("macho/") ? .machO : .elf
            XCTAssertEqual(ObjectFileParser.sniff(Array(bytes.prefix(8))), expected, name)
            let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
            assertMapInvariants(map, size: bytes.count)
            XCTAssertEqual(map.warnings, [], name)
        }
    }

    func testFileByteSourceMatchesMemory() throws {
        let url = Fixtures.binaries.appendingPathComponent("macho/keys-universal.o")
        let fd = open(url.path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let file = try FileByteSource(fileDescriptor: fd)
        let memory = MemoryByteSource(try Fixtures.bytes("macho/keys-universal.o"))
        XCTAssertEqual(file.size, memory.size)
        XCTAssertEqual(try file.read(at: 100, count: 50), try memory.read(at: 100, count: 50))
        XCTAssertEqual(try ObjectFileParser.parse(file), try ObjectFileParser.parse(memory))
        XCTAssertThrowsError(try file.read(at: file.size - 1, count: 2))
        XCTAssertThrowsError(try file.read(at: -1, count: 1))
        XCTAssertThrowsError(try file.read(at: Int.max, count: Int.max))
        XCTAssertEqual(try file.read(at: file.size, count: 0), [])
        XCTAssertThrowsError(try memory.read(at: 1, count: -1))
        XCTAssertThrowsError(try FileByteSource(fileDescriptor: -1))
    }
}
