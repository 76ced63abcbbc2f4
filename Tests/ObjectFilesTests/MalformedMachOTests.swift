import XCTest
@testable import ObjectFiles

/// Lying Mach-O and fat headers: each is an ObjectFileError (structure) or a documented warning
/// with the bad region dropped (a section or segment outside the image), never a trap.
final class MalformedMachOTests: XCTestCase {
    /// A 64-bit arm64 object from the fixtures and the offsets of its fields.
    private func object() throws -> [UInt8] { try Fixtures.bytes("macho/keys-arm64-ios.o") }
    private let sizeofcmdsField = 20, ncmdsField = 16, firstCommand = 32
    private let firstSection = 32 + 72  // the object's one LC_SEGMENT_64, then its sections

    func testTruncatedHeaders() throws {
        let bytes = try object()
        assertParseError(Array(bytes.prefix(20)), "header truncated")
        assertParseError(Array(bytes.prefix(30)), "64-bit header truncated")
        // Sniffable magic, nothing else.
        assertParseError(Array(bytes.prefix(4)), "header truncated")
        // Header intact, load commands cut off.
        assertParseError(Array(bytes.prefix(100)), "sizeofcmds")
    }

    func testSizeofcmdsPastTheEnd() throws {
        var bytes = try object()
        bytes.put32(UInt32(bytes.count), at: sizeofcmdsField)
        assertParseError(bytes, "sizeofcmds \(bytes.count) runs past the end")
        bytes.put32(0xffff_ffff, at: sizeofcmdsField)
        assertParseError(bytes, "runs past the end")
    }

    func testNcmdsLies() throws {
        var bytes = try object()
        bytes.put32(0xffff_ffff, at: ncmdsField)
        assertParseError(bytes, "ncmds 4294967295 cannot fit")
        // One more command than the commands area holds (but still plausible for its size).
        bytes = try object()
        let sizeofcmds = Int(bytes.get32(sizeofcmdsField))
        let ncmds = Int(bytes.get32(ncmdsField))
        var used = 0
        var offset = firstCommand
        for _ in 0..<ncmds { let size = Int(bytes.get32(offset + 4)); used += size; offset += size }
        XCTAssertEqual(used, sizeofcmds)
        bytes.put32(UInt32(ncmds + 1), at: ncmdsField)
        assertParseError(bytes, "load command \(ncmds) starts past sizeofcmds")
    }

    func testLoadCommandSizeLies() throws {
        var bytes = try object()
        bytes.put32(0, at: firstCommand + 4)
        assertParseError(bytes, "load command 0 has size 0")  // would loop forever if accepted
        bytes.put32(4, at: firstCommand + 4)
        assertParseError(bytes, "load command 0 has size 4")
        bytes.put32(0x7fff_fff0, at: firstCommand + 4)
        assertParseError(bytes, "load command 0 runs past sizeofcmds")
        // A segment command shorter than its own header.
        bytes = try object()
        let sizeofcmds = Int(bytes.get32(sizeofcmdsField))
        bytes.put32(16, at: firstCommand + 4)
        bytes.put32(UInt32(sizeofcmds), at: sizeofcmdsField)
        assertParseError(bytes, "less than its header")
    }

    func testSegmentWithTooManySections() throws {
        var bytes = try object()
        bytes.put32(0xffff_ffff, at: firstCommand + 64)  // nsects
        assertParseError(bytes, "declares 4294967295 sections")
        bytes.put32(6, at: firstCommand + 64)           // one more than it holds
        assertParseError(bytes, "declares 6 sections")
    }

    func testSectionOutsideTheFileIsDroppedWithAWarning() throws {
        var bytes = try object()
        bytes.put32(UInt32(bytes.count - 4), at: firstSection + 48)  // __text offset: runs past the end
        var map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertFalse(map.slices[0].sections.contains { $0.name == "__TEXT,__text" })
        XCTAssertEqual(map.warnings.count, 1)
        XCTAssertTrue(map.warnings[0].contains("lies outside the image"), map.warnings[0])
        assertMapInvariants(map, size: bytes.count)

        // Size near UInt64.max: offset + size overflows.
        bytes = try object()
        bytes.put64(UInt64.max - 10, at: firstSection + 40)
        map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.warnings.count, 1)
        assertMapInvariants(map, size: bytes.count)
    }

    func testSegmentOutsideTheFileIsDroppedWithAWarning() throws {
        var bytes = try object()
        bytes.put64(UInt64(Int.max), at: firstCommand + 40)  // fileoff
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].segments, [])
        XCTAssertTrue(map.warnings.contains { $0.contains("segment in load command 0") }, "\(map.warnings)")
        XCTAssertFalse(map.slices[0].sections.isEmpty, "sections are checked on their own")
    }

    func testAddressNearTheTopDoesNotTrap() throws {
        var bytes = try object()
        bytes.put64(UInt64.max - 2, at: firstSection + 32)  // __text addr
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        let text = try XCTUnwrap(map.slices[0].sections.first { $0.name == "__TEXT,__text" })
        XCTAssertEqual(map.locate(text.fileRange.lowerBound + 5)?.virtualAddress, 2, "wraps instead of trapping")
    }

    func testErrorsNeverQuoteFileBytes() throws {
        // A section name full of canary text must not reach an error message or warning.
        var bytes = try object()
        let canary = Array("TEST_SECRET_MUST".utf8)
        bytes.replaceSubrange(firstSection..<(firstSection + 16), with: canary)
        bytes.put32(UInt32(bytes.count), at: firstSection + 48)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertFalse(map.warnings.joined().contains("TEST_SECRET"))
        bytes.put32(0xffff_ffff, at: ncmdsField)
        do { _ = try ObjectFileParser.parse(MemoryByteSource(bytes)) } catch let error as ObjectFileError {
            XCTAssertFalse(error.message.contains("TEST_SECRET"))
        }
    }

    // MARK: fat

    private func fat(_ wide: Bool = false) throws -> (bytes: [UInt8], offsets: [Int]) {
        MachOWriter.fat([(0x0100_000c, 0, try Fixtures.bytes("macho/keys-arm64-ios.o")),
                         (0x0100_0007, 3, try Fixtures.bytes("macho/keys-x86_64-macos.o"))], wide: wide)
    }

    func testFatTruncatedAndEmpty() throws {
        var (bytes, _) = try fat()
        assertParseError(Array(bytes.prefix(8 + 20 + 5)), "architecture table")
        bytes.put32(0, at: 4, bigEndian: true)
        XCTAssertNil(ObjectFileParser.sniff(Array(bytes.prefix(8))), "zero architectures is not a fat file")
        XCTAssertEqual(try ObjectFileParser.parse(MemoryByteSource(bytes)).format, .raw)
        XCTAssertThrowsError(try FatParser.parse(MemoryByteSource(bytes))) { error in
            XCTAssertEqual((error as? ObjectFileError)?.message, "fat: header lists no architectures")
        }
    }

    func testFatSliceOutOfRange() throws {
        var (bytes, _) = try fat()
        bytes.put32(UInt32(bytes.count - 10), at: 8 + 20 + 8, bigEndian: true)  // slice 1 offset
        assertParseError(bytes, "slice 1 (x86_64)")
        (bytes, _) = try fat()
        bytes.put32(0xffff_ffff, at: 8 + 12, bigEndian: true)                   // slice 0 size
        assertParseError(bytes, "lies outside the file")
        (bytes, _) = try fat()
        bytes.put32(4, at: 8 + 8, bigEndian: true)                              // slice 0 over the header
        assertParseError(bytes, "over the fat header")
        (bytes, _) = try fat()
        bytes.put32(0, at: 8 + 12, bigEndian: true)
        assertParseError(bytes, "slice 0 (arm64) is empty")
    }

    func testFat64OffsetOverflow() throws {
        var (bytes, _) = try fat(true)
        bytes.put64(UInt64.max - 100, at: 8 + 8, bigEndian: true)
        assertParseError(bytes, "lies outside the file")
        (bytes, _) = try fat(true)
        bytes.put64(UInt64.max, at: 8 + 16, bigEndian: true)
        assertParseError(bytes, "lies outside the file")
    }

    func testFatSlicesOverlap() throws {
        var (bytes, offsets) = try fat()
        bytes.put32(UInt32(offsets[0] + 16), at: 8 + 20 + 8, bigEndian: true)
        bytes.put32(100, at: 8 + 20 + 12, bigEndian: true)
        assertParseError(bytes, "overlap")
    }

    func testFatWithBrokenOrNestedSlice() throws {
        var (bytes, offsets) = try fat()
        bytes.put32(0xffff_ffff, at: offsets[1] + ncmdsField)
        assertParseError(bytes, "fat slice 1 (x86_64): Mach-O: ncmds")
        (bytes, offsets) = try fat()
        bytes.replaceSubrange(offsets[0]..<(offsets[0] + 8), with: [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 1])
        assertParseError(bytes, "is itself a fat file")
    }

    func testJavaClassFileIsNotFat() throws {
        // magic, minor 0, major 65 (Java 21), constant pool count ...
        let java: [UInt8] = [0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x41, 0x00, 0x1d, 0x0a, 0x00]
        XCTAssertNil(ObjectFileParser.sniff(java))
        let map = try ObjectFileParser.parse(MemoryByteSource(java))
        XCTAssertEqual(map.format, .raw)
        XCTAssertEqual(map.slices, [ObjectSlice(format: .raw, arch: nil, fileRange: 0..<java.count)])
        // 42 is the largest plausible architecture count; 43 is Java 1.0's minimum version range.
        XCTAssertEqual(ObjectFileParser.sniff([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 42]), .machO)
        XCTAssertNil(ObjectFileParser.sniff([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 43]))
        XCTAssertNil(ObjectFileParser.sniff([0xca, 0xfe, 0xba, 0xbe]), "too short to tell")
        assertParseError([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 42], "architecture table")
    }
}
