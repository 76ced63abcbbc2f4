import XCTest
@testable import ObjectFiles

/// MH_EXECUTE images from MachOWriter: segment-relative addresses, __LINKEDIT, zero-fill,
/// 32-bit, big-endian and FAT_MAGIC_64 wrappers.
final class MachOExecutableTests: XCTestCase {
    let cstrings = Array("hello\0".utf8) + Canary.cString("InCstringOfExecutable")
    let data = Canary.cString("InDataOfExecutable")
    let linkedit = Array("_main\0_apiKey\0".utf8) + Canary.cString("InLinkedit")

    func testExecutable64SectionsAddressesAndLinkedit() throws {
        let (bytes, placed) = MachOWriter.executable(cstrings: cstrings, data: data, linkedit: linkedit).build()
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        assertMapInvariants(map, size: bytes.count)
        XCTAssertEqual(map.warnings, [])
        let slice = try XCTUnwrap(map.slices.first)
        XCTAssertEqual(slice.arch, "arm64")
        XCTAssertEqual(slice.sections.map(\.name), ["__TEXT,__text", "__TEXT,__cstring", "__DATA,__data"],
                       "__bss is zero-fill and must be omitted")
        // __PAGEZERO has no file bytes.
        XCTAssertEqual(slice.segments.map(\.name), ["__TEXT", "__DATA", "__LINKEDIT"])

        let cstring = try XCTUnwrap(placed["__TEXT,__cstring"])
        let key = cstring.offset + 6
        let hit = try XCTUnwrap(map.locate(key))
        XCTAssertEqual(hit.region?.name, "__TEXT,__cstring")
        XCTAssertEqual(hit.virtualAddress, 0x1_0000_0000 + UInt64(key), "__TEXT maps the file from offset 0")
        XCTAssertEqual(hit.virtualAddress, cstring.address + 6)

        let dataPlace = try XCTUnwrap(placed["__DATA,__data"])
        XCTAssertEqual(map.locate(dataPlace.offset + 3)?.virtualAddress, dataPlace.address + 3)
        XCTAssertEqual(map.locate(dataPlace.offset)?.region?.name, "__DATA,__data")

        // Bytes outside every section still get a name and an address: __LINKEDIT.
        let linkeditPlace = try XCTUnwrap(placed["__LINKEDIT"])
        let inLinkedit = linkeditPlace.offset + 14
        let linkeditHit = try XCTUnwrap(map.locate(inLinkedit))
        XCTAssertEqual(linkeditHit.region?.name, "__LINKEDIT")
        XCTAssertEqual(linkeditHit.virtualAddress, 0x1_0000_8000 + 14)

        // The header and load commands are in __TEXT, outside any section.
        XCTAssertEqual(map.locate(0)?.region?.name, "__TEXT")
        XCTAssertEqual(map.locate(0)?.virtualAddress, 0x1_0000_0000)
        XCTAssertNil(map.locate(bytes.count))
    }

    func testExecutable32AndBigEndian() throws {
        for (bigEndian, cpu, arch) in [(false, UInt32(7), "i386"), (true, UInt32(18), "ppc"), (false, UInt32(12), "armv7s")] {
            let subtype: UInt32 = arch == "armv7s" ? 11 : 0
            let writer = MachOWriter.executable(is64: false, bigEndian: bigEndian, cpuType: cpu, cpuSubtype: subtype,
                                                cstrings: cstrings, data: data, linkedit: linkedit)
            let (bytes, placed) = writer.build()
            let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
            assertMapInvariants(map, size: bytes.count)
            XCTAssertEqual(map.slices[0].arch, arch)
            let cstring = try XCTUnwrap(placed["__TEXT,__cstring"])
            let hit = try XCTUnwrap(map.locate(cstring.offset + 6))
            XCTAssertEqual(hit.region?.name, "__TEXT,__cstring", arch)
            XCTAssertEqual(hit.virtualAddress, 0x1000 + UInt64(cstring.offset + 6), arch)
            XCTAssertEqual(map.locate(try XCTUnwrap(placed["__LINKEDIT"]).offset)?.region?.name, "__LINKEDIT", arch)
        }
        // ppc64: 64-bit big-endian.
        let (bytes, placed) = MachOWriter.executable(bigEndian: true, cpuType: 0x0100_0012, cstrings: cstrings,
                                                     data: data, linkedit: linkedit).build()
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].arch, "ppc64")
        XCTAssertEqual(map.locate(try XCTUnwrap(placed["__DATA,__data"]).offset)?.region?.name, "__DATA,__data")
    }

    func testUstringSectionAndUTF16Runs() throws {
        var ustring: [UInt8] = []
        for unit in Canary.text("InUstring").utf16 { ustring += [UInt8(unit & 0xff), UInt8(unit >> 8)] }
        ustring += [0, 0]
        let (bytes, placed) = MachOWriter.executable(cstrings: cstrings, ustring: ustring, data: data, linkedit: linkedit).build()
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        var decoded: [UInt8] = []
        var runs: [UTF16Text.Run] = []
        bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: 8, into: &decoded, runs: &runs) }
        let run = try XCTUnwrap(runs.first { String(decoding: decoded[$0.decodedRange], as: UTF8.self).hasSuffix("InUstring") })
        XCTAssertEqual(run.sourceOffset, try XCTUnwrap(placed["__TEXT,__ustring"]).offset)
        XCTAssertEqual(map.locate(run.sourceOffset)?.region?.name, "__TEXT,__ustring")
    }

    func testFatMagic64WithExecutableAndObjects() throws {
        let exe = MachOWriter.executable(cstrings: cstrings, data: data, linkedit: linkedit).build()
        let x86 = try Fixtures.bytes("macho/keys-x86_64-macos.o")
        let (bytes, offsets) = MachOWriter.fat([(0x0100_000c, 0, exe.bytes), (0x0100_0007, 3, x86)], wide: true, alignLog2: 12)
        XCTAssertEqual(ObjectFileParser.sniff(Array(bytes.prefix(8))), .machO)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        assertMapInvariants(map, size: bytes.count)
        XCTAssertTrue(map.isFat)
        XCTAssertEqual(map.slices.map(\.arch), ["arm64", "x86_64"])
        XCTAssertEqual(map.slices.map(\.fileRange.lowerBound), offsets)

        let cstring = try XCTUnwrap(exe.placed["__TEXT,__cstring"])
        let hit = try XCTUnwrap(map.locate(offsets[0] + cstring.offset + 6))
        XCTAssertEqual(hit.slice.arch, "arm64")
        XCTAssertEqual(hit.region?.name, "__TEXT,__cstring")
        XCTAssertEqual(hit.virtualAddress, cstring.address + 6, "addresses stay slice-relative; offsets are absolute")

        // The x86_64 slice agrees with expected.tsv shifted by the slice offset.
        for row in try Fixtures.expectations() where row.fixture == "macho/keys-x86_64-macos.o" {
            let hit = try XCTUnwrap(map.locate(offsets[1] + row.fileOffset))
            XCTAssertEqual(hit.slice.arch, "x86_64")
            XCTAssertEqual(hit.region?.name, row.section)
            XCTAssertEqual(hit.virtualAddress, row.virtualAddress)
        }
    }

    func testFatSliceThatIsNotMachOIsKeptRawWithItsArch() throws {
        let archive = Array("!<arch>\n".utf8) + [UInt8](repeating: 0x20, count: 120)
        let arm = try Fixtures.bytes("macho/keys-arm64-ios.o")
        let (bytes, offsets) = MachOWriter.fat([(0x0100_0007, 3, archive), (0x0100_000c, 0, arm)])
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices.map(\.format), [.raw, .machO])
        XCTAssertEqual(map.slices.map(\.arch), ["x86_64", "arm64"])
        let hit = try XCTUnwrap(map.locate(offsets[0] + 10))
        XCTAssertEqual(hit.slice.arch, "x86_64")
        XCTAssertNil(hit.region)
    }

    func testOverlappingSectionsLocateTheNarrowest() throws {
        var writer = MachOWriter.executable(cstrings: cstrings, data: data, linkedit: linkedit)
        writer.segments[1].sections.append(.init(segname: "__TEXT", sectname: "__wide", data: [UInt8](repeating: 0x41, count: 8)))
        var (bytes, placed) = writer.build()
        // Make __wide claim everything from __text through __cstring: it overlaps both.
        let text = try XCTUnwrap(placed["__TEXT,__text"])
        let cstring = try XCTUnwrap(placed["__TEXT,__cstring"])
        let wideHeader = 32 + 72 + 72 + 80 * 2   // header, __PAGEZERO, __TEXT command, two sections
        bytes.put32(UInt32(text.offset), at: wideHeader + 48)
        bytes.put64(UInt64(cstring.offset + cstring.size - text.offset), at: wideHeader + 40)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        assertMapInvariants(map, size: bytes.count)
        XCTAssertEqual(map.slices[0].sections.filter { $0.name == "__TEXT,__wide" }.count, 1)
        XCTAssertEqual(map.locate(cstring.offset + 6)?.region?.name, "__TEXT,__cstring")
        XCTAssertEqual(map.locate(text.offset)?.region?.name, "__TEXT,__text")
        // Padding between __text and __cstring is only in __wide.
        XCTAssertEqual(map.locate(text.offset + text.size)?.region?.name, "__TEXT,__wide")
    }
}
