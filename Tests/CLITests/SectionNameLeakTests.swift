import Foundation
import XCTest
import TestSupport

/// Section and segment names are read from the scanned file, so a crafted binary can make
/// them hold the very key it contains. No format may print any of it.
final class SectionNameLeakTests: XCTestCase {
    /// A Stripe-shaped key made at run time: mixed case and digits in every 8 bytes.
    let key: String = TestKeys.stripe()

    var body: String { String(key.dropFirst(8)) }

    /// ELF64 relocatable: the key in section 1, then one section per entry of `names`, all
    /// over the same bytes. `names == nil`: e_shstrndx is section 1 itself, so each section's
    /// "name" is read from inside the key.
    func elf(names: [String]?) -> [UInt8] {
        let data = Array(("\0" + key + "\0." + body + "\0").utf8)
        let names = names ?? []
        var strtab: [UInt8] = [0]
        var nameOffsets: [Int] = []
        for name in names { nameOffsets.append(strtab.count); strtab += Array(name.utf8) + [0] }
        let dataOffset = 64, strtabOffset = dataOffset + data.count
        let shoff = (strtabOffset + strtab.count + 7) & ~7
        let count = names.isEmpty ? 6 : names.count       // sections over the key
        let shnum = 2 + count                             // null, the key's, then those
        var out = [UInt8](repeating: 0, count: shoff + shnum * 64)
        out.replaceSubrange(0..<4, with: [0x7f, 0x45, 0x4c, 0x46])
        out[4] = 2; out[5] = 1; out[6] = 1
        out.put(1, at: 16, 2); out.put(62, at: 18, 2); out.put(1, at: 20, 4)
        out.put(UInt64(shoff), at: 40, 8)
        out.put(64, at: 52, 2); out.put(64, at: 58, 2); out.put(UInt64(shnum), at: 60, 2)
        out.replaceSubrange(dataOffset..<strtabOffset, with: data)
        out.replaceSubrange(strtabOffset..<(strtabOffset + strtab.count), with: strtab)
        func header(_ index: Int, name: Int, type: UInt64, offset: Int, size: Int) {
            let at = shoff + index * 64
            out.put(UInt64(name), at: at, 4); out.put(type, at: at + 4, 4); out.put(2, at: at + 8, 8)
            out.put(UInt64(offset), at: at + 24, 8); out.put(UInt64(size), at: at + 32, 8); out.put(1, at: at + 48, 8)
        }
        if names.isEmpty {
            out.put(1, at: 62, 2)  // the name table is the key's own section
            header(1, name: 1, type: 1, offset: dataOffset, size: data.count)
            for i in 0..<count { header(2 + i, name: 1 + i * 5, type: 1, offset: dataOffset + 1, size: key.utf8.count) }
        } else {
            // A real name table, as the last section; the key's section is named by it too.
            header(1, name: nameOffsets[0], type: 1, offset: dataOffset, size: data.count)
            for i in 0..<count - 1 { header(2 + i, name: nameOffsets[i + 1], type: 1, offset: dataOffset + 1, size: key.utf8.count) }
            header(shnum - 1, name: 0, type: 3, offset: strtabOffset, size: strtab.count)
            out.put(UInt64(shnum - 1), at: 62, 2)
        }
        return out
    }

    /// Mach-O 64 object: one segment and one section over the key, whose segname, sectname
    /// and the section's segname fields each hold 16 bytes of the key.
    func machO() -> [UInt8] {
        let data = Array((key + "\0").utf8)
        let commandSize = 72 + 80, dataOffset = 32 + commandSize
        var out = [UInt8](repeating: 0, count: dataOffset + data.count)
        out.put(0xfeed_facf, at: 0, 4); out.put(0x0100_000c, at: 4, 4); out.put(1, at: 12, 4)
        out.put(1, at: 16, 4); out.put(UInt64(commandSize), at: 20, 4)
        let c = 32
        out.put(0x19, at: c, 4); out.put(UInt64(commandSize), at: c + 4, 4)
        out.putName(String(key.prefix(16)), at: c + 8)
        out.put(UInt64(data.count), at: c + 32, 8); out.put(UInt64(dataOffset), at: c + 40, 8); out.put(UInt64(data.count), at: c + 48, 8)
        out.put(1, at: c + 64, 4)
        let s = c + 72
        out.putName(String(body.prefix(16)), at: s)
        out.putName(String(body.suffix(16)), at: s + 16)
        out.put(UInt64(data.count), at: s + 40, 8); out.put(UInt64(dataOffset), at: s + 48, 4)
        out.replaceSubrange(dataOffset..<out.count, with: data)
        return out
    }

    func testNoFormatPrintsKeyBytesFromCraftedNames() throws {
        let tmp = TempDir()
        let files: [(String, [UInt8])] = [
            ("names-from-data.o", elf(names: nil)),
            ("named-with-key.o", elf(names: [key, "." + String(key.prefix(31)), "." + String(body.prefix(20)),
                                             ".rodata." + String(body.prefix(12)), "swift5_" + String(body.prefix(16)),
                                             "__" + String(body.suffix(16))])),
            ("macho-names.o", machO()),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: tmp.path + "/" + name)) }
        for format in ["text", "json", "jsonl", "sarif"] {
            let r = keyshape(["scan", tmp.path, "--format", format, "--no-progress"])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            assertNoFragment(of: key, in: r.stdout, "\(format) stdout")
            assertNoFragment(of: key, in: r.stderr, "\(format) stderr")
            if format == "json" {
                let object = try XCTUnwrap(r.report)
                let locations = (object["findings"] as! [[String: Any]]).map { $0["location"] as! [String: Any] }
                XCTAssertEqual(Set(locations.compactMap { $0["path"] as? String }), Set(files.map(\.0)), "each file is still scanned")
                for l in locations {
                    let section = l["section"] as? String ?? ""
                    XCTAssertTrue(section.hasSuffix("]"), "\(l["path"] ?? ""): a placeholder, not \(section.count) bytes of the file")
                }
            }
        }
    }
}

private extension Array where Element == UInt8 {
    /// Little-endian `width` bytes of `value` at `offset`.
    mutating func put(_ value: UInt64, at offset: Int, _ width: Int) {
        for i in 0..<width { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }

    mutating func putName(_ name: String, at offset: Int) {
        for (i, b) in name.utf8.prefix(16).enumerated() { self[offset + i] = b }
    }
}
