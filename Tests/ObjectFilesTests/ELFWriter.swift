/// Writes tiny ELF files of any class and byte order for the tests: gcc here only targets
/// x86_64, and malformed-header tests need every field under control.
///
/// Layout: ELF header, program headers (one PT_LOAD over the whole file at `loadAddress`, one
/// PT_NOTE), section contents, .shstrtab, then the section header table.
struct ELFWriter {
    struct Section {
        var name: String
        var type: UInt32 = 1       // SHT_PROGBITS
        var flags: UInt64 = 0x2    // SHF_ALLOC
        var data: [UInt8]
    }

    var is64 = true
    var bigEndian = false
    var machine: UInt16 = 62
    var type: UInt16 = 2           // ET_EXEC
    var loadAddress: UInt64 = 0x40_0000
    var sections: [Section] = []

    struct Placement: Equatable { var offset: Int; var address: UInt64?; var size: Int }

    /// Field offsets callers patch in malformed-file tests.
    var shoffField: Int { is64 ? 40 : 32 }
    var phoffField: Int { is64 ? 32 : 28 }
    var shnumField: Int { is64 ? 60 : 48 }
    var shstrndxField: Int { is64 ? 62 : 50 }
    var shentsize: Int { is64 ? 64 : 40 }
    var phentsize: Int { is64 ? 56 : 32 }

    func build() -> (bytes: [UInt8], placed: [String: Placement], shoff: Int) {
        let ehsize = is64 ? 64 : 52
        let phnum = 2
        var cursor = ehsize + phnum * phentsize
        var placed: [String: Placement] = [:]
        var names: [UInt8] = [0]
        var nameOffsets: [Int] = []
        var offsets: [Int] = []
        for section in sections {
            nameOffsets.append(names.count)
            names += Array(section.name.utf8) + [0]
            cursor = (cursor + 7) & ~7
            offsets.append(cursor)
            let mapped = section.flags & 0x2 != 0
            placed[section.name] = Placement(offset: cursor, address: mapped ? loadAddress + UInt64(cursor) : nil, size: section.data.count)
            if section.type != 8 { cursor += section.data.count }  // NOBITS takes no file space
        }
        let shstrtabNameOffset = names.count
        names += Array(".shstrtab".utf8) + [0]
        let shstrtabOffset = cursor
        cursor += names.count
        cursor = (cursor + 7) & ~7
        let shoff = cursor
        let shnum = sections.count + 2  // null + sections + .shstrtab
        let fileSize = shoff + shnum * shentsize

        var out = [UInt8](repeating: 0, count: fileSize)
        out.replaceSubrange(0..<4, with: [0x7f, 0x45, 0x4c, 0x46])
        out[4] = is64 ? 2 : 1
        out[5] = bigEndian ? 2 : 1
        out[6] = 1
        out.put16(type, at: 16, bigEndian: bigEndian)
        out.put16(machine, at: 18, bigEndian: bigEndian)
        out.put32(1, at: 20, bigEndian: bigEndian)
        putWord(&out, loadAddress, at: 24)                                  // e_entry
        putWord(&out, UInt64(ehsize), at: phoffField)                       // e_phoff
        putWord(&out, UInt64(shoff), at: shoffField)                        // e_shoff
        let tail = is64 ? 52 : 40
        out.put16(UInt16(ehsize), at: tail, bigEndian: bigEndian)
        out.put16(UInt16(phentsize), at: tail + 2, bigEndian: bigEndian)
        out.put16(UInt16(phnum), at: tail + 4, bigEndian: bigEndian)
        out.put16(UInt16(shentsize), at: tail + 6, bigEndian: bigEndian)
        out.put16(UInt16(shnum), at: tail + 8, bigEndian: bigEndian)
        out.put16(UInt16(shnum - 1), at: tail + 10, bigEndian: bigEndian)

        // Program headers: PT_LOAD over the whole file, then a PT_NOTE the parser must ignore.
        writeProgramHeader(&out, index: 0, type: 1, offset: 0, vaddr: loadAddress, filesz: UInt64(fileSize))
        writeProgramHeader(&out, index: 1, type: 4, offset: 0, vaddr: 0, filesz: 16)

        for (i, section) in sections.enumerated() {
            if section.type != 8 { out.replaceSubrange(offsets[i]..<(offsets[i] + section.data.count), with: section.data) }
            let address = section.flags & 0x2 != 0 ? loadAddress + UInt64(offsets[i]) : 0
            writeSectionHeader(&out, index: i + 1, name: nameOffsets[i], type: section.type, flags: section.flags,
                               addr: address, offset: offsets[i], size: section.data.count)
        }
        out.replaceSubrange(shstrtabOffset..<(shstrtabOffset + names.count), with: names)
        writeSectionHeader(&out, index: shnum - 1, name: shstrtabNameOffset, type: 3, flags: 0, addr: 0,
                           offset: shstrtabOffset, size: names.count)
        placed[".shstrtab"] = Placement(offset: shstrtabOffset, address: nil, size: names.count)
        return (out, placed, shoff)
    }

    private func putWord(_ out: inout [UInt8], _ value: UInt64, at offset: Int) {
        if is64 { out.put64(value, at: offset, bigEndian: bigEndian) } else { out.put32(UInt32(truncatingIfNeeded: value), at: offset, bigEndian: bigEndian) }
    }

    private func writeProgramHeader(_ out: inout [UInt8], index: Int, type: UInt32, offset: UInt64, vaddr: UInt64, filesz: UInt64) {
        let at = (is64 ? 64 : 52) + index * phentsize
        out.put32(type, at: at, bigEndian: bigEndian)
        if is64 {
            out.put32(5, at: at + 4, bigEndian: bigEndian)
            out.put64(offset, at: at + 8, bigEndian: bigEndian)
            out.put64(vaddr, at: at + 16, bigEndian: bigEndian)
            out.put64(vaddr, at: at + 24, bigEndian: bigEndian)
            out.put64(filesz, at: at + 32, bigEndian: bigEndian)
            out.put64(filesz, at: at + 40, bigEndian: bigEndian)
        } else {
            out.put32(UInt32(offset), at: at + 4, bigEndian: bigEndian)
            out.put32(UInt32(vaddr), at: at + 8, bigEndian: bigEndian)
            out.put32(UInt32(vaddr), at: at + 12, bigEndian: bigEndian)
            out.put32(UInt32(filesz), at: at + 16, bigEndian: bigEndian)
            out.put32(UInt32(filesz), at: at + 20, bigEndian: bigEndian)
            out.put32(5, at: at + 24, bigEndian: bigEndian)
        }
    }

    private func writeSectionHeader(_ out: inout [UInt8], index: Int, name: Int, type: UInt32, flags: UInt64,
                                    addr: UInt64, offset: Int, size: Int) {
        let at = sectionHeaderOffset(out, index)
        out.put32(UInt32(name), at: at, bigEndian: bigEndian)
        out.put32(type, at: at + 4, bigEndian: bigEndian)
        if is64 {
            out.put64(flags, at: at + 8, bigEndian: bigEndian)
            out.put64(addr, at: at + 16, bigEndian: bigEndian)
            out.put64(UInt64(offset), at: at + 24, bigEndian: bigEndian)
            out.put64(UInt64(size), at: at + 32, bigEndian: bigEndian)
        } else {
            out.put32(UInt32(flags), at: at + 8, bigEndian: bigEndian)
            out.put32(UInt32(addr), at: at + 12, bigEndian: bigEndian)
            out.put32(UInt32(offset), at: at + 16, bigEndian: bigEndian)
            out.put32(UInt32(size), at: at + 20, bigEndian: bigEndian)
        }
    }

    /// File offset of section header `index` in a built file.
    func sectionHeaderOffset(_ bytes: [UInt8], _ index: Int) -> Int {
        let shoff = is64 ? Int(bytes.get64(shoffField, bigEndian: bigEndian)) : Int(bytes.get32(shoffField, bigEndian: bigEndian))
        return shoff + index * shentsize
    }

    /// A small file with mapped .rodata, writable .data, a .bss (NOBITS) and an unmapped .comment.
    static func sample(is64: Bool, bigEndian: Bool, machine: UInt16) -> ELFWriter {
        ELFWriter(is64: is64, bigEndian: bigEndian, machine: machine, sections: [
            Section(name: ".text", flags: 0x6, data: [UInt8](repeating: 0x90, count: 24)),
            Section(name: ".rodata", data: Canary.cString("ElfWriterRodata")),
            Section(name: ".data", flags: 0x3, data: Canary.cString("ElfWriterData")),
            Section(name: ".bss", type: 8, flags: 0x3, data: [UInt8](repeating: 0, count: 32)),
            Section(name: ".comment", flags: 0x30, data: Array("keyshape test writer\0".utf8)),
        ])
    }
}
