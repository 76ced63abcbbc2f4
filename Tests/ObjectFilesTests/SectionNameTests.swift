import XCTest
@testable import ObjectFiles

/// Section and segment names come from the file: only names with a real name's shape are
/// kept; anything else (a key read through a lying e_shstrndx, 16 bytes of a key in a
/// Mach-O name field) becomes a placeholder with the index.
final class SectionNameTests: XCTestCase {
    /// A Stripe-shaped key made at run time: mixed case and digits, as real keys are.
    static func plantedKey() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        var body = ""
        for i in 0..<28 {
            let pick = [alphabet[Int.random(in: 0..<24)], alphabet[24 + Int.random(in: 0..<25)], alphabet[49 + Int.random(in: 0..<8)]]
            body.append(pick[i % 3])
        }
        return "sk_live_" + body
    }

    /// Every substring of 8 or more bytes of `secret`.
    static func fragments(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        return (0...(bytes.count - 8)).map { String(decoding: bytes[$0..<($0 + 8)], as: UTF8.self) }
    }

    func assertNoFragment(_ key: String, in names: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for name in names {
            for fragment in Self.fragments(of: key) where name.contains(fragment) {
                XCTFail("\(what): name \(name.debugDescription) holds key bytes", file: file, line: line)
                return
            }
        }
    }

    func testNamesToolchainsEmitAreKept() {
        for name in [".text", ".rodata", ".rodata.str1.1", ".rodata.cst16", ".data.rel.ro", ".note.gnu.build-id", ".note.ABI-tag",
                     ".ARM.exidx", ".ARM.attributes", ".eh_frame_hdr", ".gcc_except_table", ".init_array.00099", ".debug_str_offsets",
                     ".gnu.version_r", ".go.buildinfo", ".gopclntab", ".llvm_addrsig", "swift5_typeref", "swift5_replac2",
                     "swift5_protocol_conformances", "__libc_freeres_ptrs", "__libc_IO_vtables", "__ksymtab_strings", "link_set_modules"] {
            XCTAssertEqual(SectionName.elf(Array(name.utf8)), name)
        }
        for name in ["__text", "__cstring", "__const", "__objc_methname", "__swift5_typeref", "__gcc_except_tab", "__la_symbol_ptr", "__info_plist"] {
            XCTAssertEqual(SectionName.machOSection(Array(name.utf8)), name)
        }
        for name in ["__TEXT", "__DATA", "__DATA_CONST", "__LINKEDIT", "__PAGEZERO", "__LLVM", "__DWARF"] {
            XCTAssertEqual(SectionName.machOSegment(Array(name.utf8)), name)
        }
    }

    func testKeyShapedAndOddNamesAreRefused() {
        let key = Self.plantedKey()
        var elf = [key, "." + key, "." + String(key.prefix(31)), ".rodata." + String(key.dropFirst(8).prefix(16)),
                   "swift5_" + String(key.dropFirst(8).prefix(12)), "__" + String(key.suffix(20)), ".text\u{1B}[2J", ".a b",
                   "." + String(repeating: "x", count: 40), ".AKIAIOSFODNN7", "rodata", ".[3]", ""]
        // Every 8-byte piece of the random part (the `sk_live_` prefix alone is the key's
        // kind, which every report names anyway).
        elf += Self.fragments(of: String(key.dropFirst(8))).map { "." + $0 }
        for name in elf { XCTAssertNil(SectionName.elf(Array(name.utf8)), name.debugDescription) }
        for name in ["__" + String(key.dropFirst(8).prefix(14)), String(key.prefix(16)), "__TEXT", "__Text", "__te\u{7}xt"] {
            XCTAssertNil(SectionName.machOSection(Array(name.utf8)), name.debugDescription)
        }
        for name in ["__" + String(key.dropFirst(8).prefix(14)), "__SECRET_MUST_NE", String(key.prefix(16)), "__text", "__MYSEGMENT"] {
            XCTAssertNil(SectionName.machOSegment(Array(name.utf8)), name.debugDescription)
        }
    }

    /// e_shstrndx points at .rodata, which holds the key: every "name" would be key bytes.
    func testELFWhoseNameTablePointsIntoDataKeepsIndexesOnly() throws {
        let key = Self.plantedKey()
        var writer = ELFWriter.sample(is64: true, bigEndian: false, machine: 62)
        writer.sections[1].data = Array(("\0" + key + "\0" + key.dropFirst(3) + "\0").utf8)
        var (bytes, _, _) = writer.build()
        bytes.put16(2, at: writer.shstrndxField)  // section 2 is .rodata (1 is .text)
        // Point every section's sh_name at a different place inside the key.
        for index in 1..<6 {
            let at = writer.sectionHeaderOffset(bytes, index)
            bytes.put32(UInt32(1 + (index * 5) % key.utf8.count), at: at)
        }
        let map = try ObjectFileParser.parse(MemoryByteSource(bytes))
        let names = map.slices[0].sections.map(\.name) + map.slices[0].segments.map(\.name)
        XCTAssertFalse(names.isEmpty)
        assertNoFragment(key, in: names + map.warnings, "ELF")
        XCTAssertTrue(map.slices[0].sections.allSatisfy { $0.name.hasPrefix("[") && $0.name.hasSuffix("]") }, "\(names)")
    }

    func testELFSectionsNamedWithTheKeyKeepIndexesOnly() throws {
        let key = Self.plantedKey()
        var writer = ELFWriter.sample(is64: true, bigEndian: false, machine: 62)
        writer.sections[0].name = key
        writer.sections[1].name = "." + key
        writer.sections[2].name = "." + String(key.dropFirst(8).prefix(20))
        writer.sections[4].name = "swift5_" + String(key.dropFirst(8))
        let map = try ObjectFileParser.parse(MemoryByteSource(writer.build().bytes))
        let names = map.slices[0].sections.map(\.name)
        assertNoFragment(key, in: names + map.warnings, "ELF")
        XCTAssertEqual(names, ["[1]", "[2]", "[3]", "[5]", ".shstrtab"])
    }

    /// A Mach-O whose segname and sectname fields hold 16 bytes of the key each.
    func testMachONameFieldsHoldingKeyBytesKeepOrdinalsOnly() throws {
        let key = Self.plantedKey()
        var writer = MachOWriter.executable(cstrings: Array((key + "\0").utf8), data: Canary.cString("machoData"), linkedit: [0, 0, 0, 0])
        writer.segments[1].name = String(key.prefix(16))
        writer.segments[1].sections[1].sectname = String(key.dropFirst(8).prefix(16))
        writer.segments[2].sections[0].segname = String(key.dropFirst(12).prefix(16))
        writer.segments[2].sections[0].sectname = "__" + String(key.dropFirst(16).prefix(14))
        let map = try ObjectFileParser.parse(MemoryByteSource(writer.build().bytes))
        let names = map.slices[0].sections.map(\.name) + map.slices[0].segments.map(\.name)
        assertNoFragment(key, in: names + map.warnings, "Mach-O")
        XCTAssertEqual(map.slices[0].sections.map(\.name), ["__TEXT,__text", "SECTION[1]", "SECTION[2]"])
        XCTAssertEqual(map.slices[0].segments.map(\.name), ["SEGMENT[1]", "__DATA", "__LINKEDIT"])
    }
}
