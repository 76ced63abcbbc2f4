import XCTest
@testable import ObjectFiles

/// ELF beyond what gcc makes here: every class and byte order from ELFWriter, files without
/// section headers, extended section numbering.
final class ELFTests: XCTestCase {
    func testEveryClassAndByteOrder() throws {
        for (is64, bigEndian, machine, arch) in [(false, true, UInt16(20), "ppc"), (false, false, UInt16(40), "arm"),
                                                 (true, true, UInt16(22), "s390x"), (true, false, UInt16(243), "riscv64")] {
            let writer = ELFWriter.sample(is64: is64, bigEndian: bigEndian, machine: machine)
            let (bytes, placed, _) = writer.build()
            let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
            assertMapInvariants(map, size: bytes.count)
            XCTAssertEqual(map.warnings, [])
            XCTAssertEqual(map.format, .elf)
            let slice = map.slices[0]
            XCTAssertEqual(slice.arch, arch)
            XCTAssertEqual(slice.sections.map(\.name), [".text", ".rodata", ".data", ".comment", ".shstrtab"], arch)
            for name in [".rodata", ".data", ".comment"] {
                let place = try XCTUnwrap(placed[name])
                let hit = try XCTUnwrap(map.locate(place.offset + 5))
                XCTAssertEqual(hit.region?.name, name, arch)
                XCTAssertEqual(hit.virtualAddress, place.address.map { $0 + 5 }, "\(arch) \(name)")
            }
            XCTAssertEqual(slice.segments.map(\.name), ["LOAD[0]"])
        }
    }

    /// Section headers stripped (or never written): program headers still name the bytes.
    func testNoSectionHeadersFallsBackToLoadSegments() throws {
        for fixture in ["elf/keys-x86_64", "elf/keys-i386", "elf/keys-ppc64", "elf/keys-mips"] {
            var bytes = try Fixtures.bytes(fixture)
            let is64 = bytes[4] == 2, bigEndian = bytes[5] == 2
            if is64 {
                bytes.put64(0, at: 40, bigEndian: bigEndian)
                bytes.put16(0, at: 60, bigEndian: bigEndian)
                bytes.put16(0, at: 62, bigEndian: bigEndian)
            } else {
                bytes.put32(0, at: 32, bigEndian: bigEndian)
                bytes.put16(0, at: 48, bigEndian: bigEndian)
                bytes.put16(0, at: 50, bigEndian: bigEndian)
            }
            let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
            assertMapInvariants(map, size: bytes.count)
            XCTAssertEqual(map.slices[0].sections, [], fixture)
            XCTAssertFalse(map.slices[0].segments.isEmpty, fixture)
            for row in try Fixtures.expectations() where row.fixture == fixture && row.virtualAddress != nil {
                let hit = try XCTUnwrap(map.locate(row.fileOffset), "\(fixture) \(row.label)")
                XCTAssertTrue(hit.region?.name.hasPrefix("LOAD[") ?? false, "\(fixture) \(row.label)")
                // In an executable, PT_LOAD and section addresses agree.
                XCTAssertEqual(hit.virtualAddress, row.virtualAddress, "\(fixture) \(row.label)")
            }
        }
    }

    func testShnumZeroWithSectionHeadersStillPresentIsTreatedAsNone() throws {
        // e_shoff set but e_shnum 0 and section 0's sh_size 0: no sections, no error.
        var (bytes, _, shoff) = ELFWriter.sample(is64: true, bigEndian: false, machine: 62).build()
        bytes.put16(0, at: 60)
        XCTAssertEqual(bytes.get64(shoff + 32), 0)
        bytes.put16(0, at: 62)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].sections, [])
    }

    func testExtendedSectionNumbering() throws {
        // e_shnum == 0 with the count in section 0's sh_size; e_shstrndx == SHN_XINDEX with the
        // index in section 0's sh_link.
        let writer = ELFWriter.sample(is64: true, bigEndian: true, machine: 21)
        var (bytes, _, shoff) = writer.build()
        let count = bytes.get16(60, bigEndian: true)
        let strndx = bytes.get16(62, bigEndian: true)
        bytes.put16(0, at: 60, bigEndian: true)
        bytes.put16(0xffff, at: 62, bigEndian: true)
        bytes.put64(UInt64(count), at: shoff + 32, bigEndian: true)
        bytes.put32(UInt32(strndx), at: shoff + 40, bigEndian: true)
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].arch, "ppc64")
        XCTAssertEqual(map.slices[0].sections.map(\.name), [".text", ".rodata", ".data", ".comment", ".shstrtab"])
    }

    func testRelocatableObjectKeepsZeroBasedAddresses() throws {
        let map = try ObjectFileParser.parse(MemoryByteSource(try Fixtures.bytes("elf/keys-aarch64.o")))
        let rodata = try XCTUnwrap(map.slices[0].sections.first { $0.name == ".rodata" })
        XCTAssertEqual(rodata.virtualAddress, 0)
        XCTAssertEqual(map.slices[0].segments, [], "ET_REL has no program headers")
    }

    /// A name with a control character, or longer than a name can be, is not printed at all
    /// (SectionNameTests has the rest): the section keeps its index.
    func testOddSectionNamesKeepTheirIndex() throws {
        var writer = ELFWriter.sample(is64: true, bigEndian: false, machine: 62)
        writer.sections[0].name = ".text\u{7}"
        writer.sections[1].name = ".rodata" + String(repeating: "x", count: 300)
        let (bytes, _, _) = writer.build()
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        XCTAssertEqual(map.slices[0].sections.map(\.name), ["[1]", "[2]", ".data", ".comment", ".shstrtab"])
    }
}
