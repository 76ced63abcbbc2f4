import XCTest
@testable import ObjectFiles

/// Lying ELF headers: each is an ObjectFileError (structure) or a documented warning with the
/// bad region dropped (a section or PT_LOAD outside the file), never a trap.
final class MalformedELFTests: XCTestCase {
    private let writer = ELFWriter.sample(is64: true, bigEndian: false, machine: 62)
    private let writer32BE = ELFWriter.sample(is64: false, bigEndian: true, machine: 8)

    func testTruncatedHeaders() throws {
        let (bytes, _, _) = writer.build()
        assertParseError(Array(bytes.prefix(10)), "identification truncated")
        assertParseError(Array(bytes.prefix(40)), "header truncated (40 bytes, need 64)")
        let (small, _, _) = writer32BE.build()
        assertParseError(Array(small.prefix(51)), "header truncated (51 bytes, need 52)")
        // Header intact, tables cut off.
        assertParseError(Array(bytes.prefix(200)), "runs past the end of the file")
    }

    func testUnknownClassAndEncoding() throws {
        var (bytes, _, _) = writer.build()
        bytes[4] = 3
        assertParseError(bytes, "unknown class 3")
        bytes[4] = 2
        bytes[5] = 0
        assertParseError(bytes, "unknown data encoding 0")
    }

    func testHugeShnum() throws {
        // Extended numbering lets a file claim 2^64-1 sections without a 2^64-entry table.
        var (bytes, _, shoff) = writer.build()
        bytes.put16(0, at: writer.shnumField)
        bytes.put64(UInt64.max, at: shoff + 32)
        assertParseError(bytes, "exceeds the limit of 65536")
        bytes.put64(70_000, at: shoff + 32)
        assertParseError(bytes, "section count 70000 exceeds")
        // Within the cap but the table is not in the file.
        (bytes, _, _) = writer.build()
        bytes.put16(0xff00, at: writer.shnumField)
        assertParseError(bytes, "section header table (65280 entries")
    }

    func testShentsizeTooSmall() throws {
        var (bytes, _, _) = writer.build()
        bytes.put16(8, at: writer.shnumField - 2)
        assertParseError(bytes, "e_shentsize 8 is smaller")
    }

    func testShoffOutsideTheFile() throws {
        var (bytes, _, _) = writer.build()
        bytes.put64(UInt64.max - 3, at: writer.shoffField)
        assertParseError(bytes, "runs past the end of the file")
        let (small, _, _) = writer32BE.build()
        var copy = small
        copy.put32(0xffff_fff0, at: writer32BE.shoffField, bigEndian: true)
        assertParseError(copy, "runs past the end of the file")
    }

    func testShstrndxOutOfRange() throws {
        var (bytes, _, _) = writer.build()
        bytes.put16(200, at: writer.shstrndxField)
        assertParseError(bytes, "e_shstrndx 200 is out of range (7 sections)")
        let (small, _, _) = writer32BE.build()
        var copy = small
        copy.put16(7, at: writer32BE.shstrndxField, bigEndian: true)
        assertParseError(copy, "e_shstrndx 7 is out of range")
    }

    func testNameTableOutsideTheFile() throws {
        var (bytes, _, _) = writer.build()
        let strtab = writer.sectionHeaderOffset(bytes, 6)
        bytes.put64(UInt64(bytes.count), at: strtab + 24)
        assertParseError(bytes, "section name table (section 6")
    }

    func testShstrndxUndefinedNamesSectionsByIndex() throws {
        var (bytes, _, _) = writer.build()
        bytes.put16(0, at: writer.shstrndxField)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].sections.map(\.name), ["[1]", "[2]", "[3]", "[5]", "[6]"])
    }

    func testSectionOutsideTheFileIsDroppedWithAWarning() throws {
        var (bytes, placed, _) = writer.build()
        let rodata = writer.sectionHeaderOffset(bytes, 2)
        bytes.put64(UInt64(bytes.count - 2), at: rodata + 24)
        var map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertFalse(map.slices[0].sections.contains { $0.name == ".rodata" })
        XCTAssertEqual(map.warnings, ["ELF: section 2 (offset \(bytes.count - 2), size \(placed[".rodata"]!.size)) lies outside the file; dropped"])
        assertMapInvariants(map, size: bytes.count)
        // Offset + size overflowing.
        (bytes, _, _) = writer.build()
        bytes.put64(UInt64.max, at: rodata + 32)
        map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.warnings.count, 1)
        // The bytes are still named by the PT_LOAD segment.
        XCTAssertEqual(map.locate(placed[".rodata"]!.offset)?.region?.name, "LOAD[0]")
    }

    func testNameOffsetOutsideTheNameTable() throws {
        var (bytes, _, _) = writer.build()
        let text = writer.sectionHeaderOffset(bytes, 1)
        bytes.put32(0xffff_fff0, at: text)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].sections.first?.name, "[1]")
        XCTAssertEqual(map.warnings.count, 1)
    }

    func testProgramHeaderLies() throws {
        var (bytes, _, _) = writer.build()
        bytes.put64(UInt64(bytes.count - 10), at: writer.phoffField)
        assertParseError(bytes, "program header table (2 entries")
        (bytes, _, _) = writer.build()
        bytes.put16(20, at: 54)  // e_phentsize
        assertParseError(bytes, "e_phentsize 20 is smaller")
        // PN_XNUM: the count comes from section 0's sh_info.
        var shoff: Int
        (bytes, _, shoff) = writer.build()
        bytes.put16(0xffff, at: 56)
        bytes.put32(0xffff_ffff, at: shoff + 44)
        assertParseError(bytes, "program header count 4294967295 exceeds")
        // A PT_LOAD running past the end is dropped with a warning.
        (bytes, _, _) = writer.build()
        bytes.put64(UInt64(bytes.count) + 1, at: 64 + 32)  // p_filesz of LOAD[0]
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].segments, [])
        XCTAssertTrue(map.warnings[0].contains("LOAD[0]"))
    }

    func testOverlappingSectionsAreKeptAndLocateTheNarrowest() throws {
        var (bytes, placed, _) = writer.build()
        // .comment claims everything from .text to the end of .data.
        let text = placed[".text"]!, data = placed[".data"]!
        let comment = writer.sectionHeaderOffset(bytes, 5)
        bytes.put64(UInt64(text.offset), at: comment + 24)
        bytes.put64(UInt64(data.offset + data.size - text.offset), at: comment + 32)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        assertMapInvariants(map, size: bytes.count)
        XCTAssertEqual(map.locate(placed[".rodata"]!.offset + 1)?.region?.name, ".rodata")
        XCTAssertEqual(map.locate(text.offset)?.region?.name, ".text")
        let rodata = placed[".rodata"]!
        XCTAssertEqual(map.locate(rodata.offset + rodata.size)?.region?.name, ".comment", "padding after .rodata")
        XCTAssertNil(map.locate(rodata.offset + rodata.size)?.virtualAddress)
    }
}
