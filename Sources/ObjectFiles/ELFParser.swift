/// ELF files of either class and byte order: section headers when present (named through
/// e_shstrndx), and PT_LOAD program headers, which name the bytes of files whose section
/// headers were stripped or never written.
enum ELFParser {
    static let maxSections = 1 << 16
    static let maxProgramHeaders = 1 << 16
    /// Bytes read for a section name: one more than SectionName shows, so a longer name is
    /// seen to be longer (and takes the placeholder) rather than cut.
    static let maxNameBytes = SectionName.maxLength + 1

    private static let shtNull: UInt32 = 0
    private static let shtNobits: UInt32 = 8
    private static let shfAlloc: UInt64 = 0x2
    private static let ptLoad: UInt32 = 1
    private static let shnXindex = 0xffff
    private static let pnXnum = 0xffff

    static func parse(_ source: ByteSource) throws -> ObjectMap {
        guard source.size >= 16 else {
            throw ObjectFileError("ELF: identification truncated (\(source.size) bytes, need 16)")
        }
        let ident = try source.read(at: 0, count: 16)
        let is64: Bool
        switch ident[4] {
        case 1: is64 = false
        case 2: is64 = true
        default: throw ObjectFileError("ELF: unknown class \(ident[4])")
        }
        let bigEndian: Bool
        switch ident[5] {
        case 1: bigEndian = false
        case 2: bigEndian = true
        default: throw ObjectFileError("ELF: unknown data encoding \(ident[5])")
        }
        let headerSize = is64 ? 64 : 52
        guard source.size >= headerSize else {
            throw ObjectFileError("ELF: header truncated (\(source.size) bytes, need \(headerSize))")
        }
        let h = BinaryReader(try source.read(at: 0, count: headerSize), bigEndian: bigEndian, context: "ELF header")
        let machine = try h.u16(18)
        let phoff = is64 ? try h.u64(32) : UInt64(try h.u32(28))
        let shoff = is64 ? try h.u64(40) : UInt64(try h.u32(32))
        let tail = is64 ? 52 : 40  // e_ehsize; the 16-bit fields follow
        let phentsize = Int(try h.u16(tail + 2))
        var phnum = Int(try h.u16(tail + 4))
        let shentsize = Int(try h.u16(tail + 6))
        var shnum = Int(try h.u16(tail + 8))
        var shstrndx = Int(try h.u16(tail + 10))
        let arch = archName(machine: machine, is64: is64, bigEndian: bigEndian)
        let minShentsize = is64 ? 64 : 40
        let minPhentsize = is64 ? 56 : 32
        var warnings: [String] = []

        // Section headers. e_shoff == 0 means there are none, whatever e_shnum says.
        var sectionTable: BinaryReader?
        if shoff != 0 {
            guard shentsize >= minShentsize else {
                throw ObjectFileError("ELF: e_shentsize \(shentsize) is smaller than a section header (\(minShentsize))")
            }
            // Extended numbering (more than 0xff00 sections): the real counts live in section 0.
            if shnum == 0 || shstrndx == shnXindex || phnum == pnXnum {
                guard let first = Checked.range(base: 0, offset: shoff, size: UInt64(shentsize), within: 0..<source.size) else {
                    throw ObjectFileError("ELF: e_shoff \(shoff) lies outside the file (\(source.size) bytes)")
                }
                let zero = BinaryReader(try source.read(at: first.lowerBound, count: first.count), bigEndian: bigEndian, context: "ELF section header 0")
                if shnum == 0 {
                    let size = is64 ? try zero.u64(32) : UInt64(try zero.u32(20))
                    guard size <= UInt64(maxSections) else {
                        throw ObjectFileError("ELF: section count \(size) exceeds the limit of \(maxSections)")
                    }
                    shnum = Int(size)
                }
                if shstrndx == shnXindex { shstrndx = Int(try zero.u32(is64 ? 40 : 24)) }
                if phnum == pnXnum { phnum = Int(try zero.u32(is64 ? 44 : 28)) }
            }
            guard shnum <= maxSections else {
                throw ObjectFileError("ELF: e_shnum \(shnum) exceeds the limit of \(maxSections)")
            }
            if shnum > 0 {
                guard let tableRange = Checked.range(base: 0, offset: shoff, size: UInt64(shnum * shentsize), within: 0..<source.size) else {
                    throw ObjectFileError("ELF: section header table (\(shnum) entries of \(shentsize) bytes at offset \(shoff)) runs past the end of the file (\(source.size) bytes)")
                }
                sectionTable = BinaryReader(try source.read(at: tableRange.lowerBound, count: tableRange.count),
                                            bigEndian: bigEndian, context: "ELF section header table")
            }
        } else {
            shnum = 0
        }

        var sections: [ObjectSection] = []
        if let table = sectionTable {
            func field(_ index: Int) -> SectionHeader.Reader { SectionHeader.Reader(table: table, base: index * shentsize, is64: is64) }

            var names: Range<Int>?
            if shstrndx != 0 {  // SHN_UNDEF: no names; sections fall back to their index
                guard shstrndx < shnum else {
                    throw ObjectFileError("ELF: e_shstrndx \(shstrndx) is out of range (\(shnum) sections)")
                }
                let strtab = try field(shstrndx).header()
                guard strtab.type != shtNobits,
                      let range = Checked.range(base: 0, offset: strtab.offset, size: strtab.size, within: 0..<source.size) else {
                    throw ObjectFileError("ELF: section name table (section \(shstrndx), offset \(strtab.offset), size \(strtab.size)) lies outside the file")
                }
                names = range
            }

            for index in 1..<max(shnum, 1) {
                let header = try field(index).header()
                if header.type == shtNull || header.type == shtNobits || header.size == 0 { continue }
                guard let fileRange = Checked.range(base: 0, offset: header.offset, size: header.size, within: 0..<source.size) else {
                    warnings.append("ELF: section \(index) (offset \(header.offset), size \(header.size)) lies outside the file; dropped")
                    continue
                }
                var name = "[\(index)]"
                if let names {
                    if let raw = try sectionName(source, table: names, offset: header.name) {
                        // A name without a section name's shape keeps the index (SectionName).
                        if let shown = SectionName.elf(raw) { name = shown }
                    } else {
                        warnings.append("ELF: section \(index) has name offset \(header.name) outside the name table; named by index")
                    }
                }
                sections.append(ObjectSection(name: name, fileRange: fileRange,
                                              virtualAddress: header.flags & shfAlloc != 0 ? header.addr : nil))
            }
        }

        // Program headers: PT_LOAD with file bytes, named by their ordinal among PT_LOADs.
        var segments: [ObjectSection] = []
        if phoff != 0 && phnum > 0 {
            guard phentsize >= minPhentsize else {
                throw ObjectFileError("ELF: e_phentsize \(phentsize) is smaller than a program header (\(minPhentsize))")
            }
            guard phnum <= maxProgramHeaders else {
                throw ObjectFileError("ELF: program header count \(phnum) exceeds the limit of \(maxProgramHeaders)")
            }
            guard let tableRange = Checked.range(base: 0, offset: phoff, size: UInt64(phnum * phentsize), within: 0..<source.size) else {
                throw ObjectFileError("ELF: program header table (\(phnum) entries of \(phentsize) bytes at offset \(phoff)) runs past the end of the file (\(source.size) bytes)")
            }
            let table = BinaryReader(try source.read(at: tableRange.lowerBound, count: tableRange.count),
                                     bigEndian: bigEndian, context: "ELF program header table")
            var loadOrdinal = 0
            for index in 0..<phnum {
                let at = index * phentsize
                guard try table.u32(at) == ptLoad else { continue }
                let ordinal = loadOrdinal
                loadOrdinal += 1
                let offset = is64 ? try table.u64(at + 8) : UInt64(try table.u32(at + 4))
                let vaddr = is64 ? try table.u64(at + 16) : UInt64(try table.u32(at + 8))
                let filesz = is64 ? try table.u64(at + 32) : UInt64(try table.u32(at + 16))
                if filesz == 0 { continue }
                guard let fileRange = Checked.range(base: 0, offset: offset, size: filesz, within: 0..<source.size) else {
                    warnings.append("ELF: program header \(index) (LOAD[\(ordinal)], offset \(offset), size \(filesz)) lies outside the file; dropped")
                    continue
                }
                segments.append(ObjectSection(name: "LOAD[\(ordinal)]", fileRange: fileRange, virtualAddress: vaddr))
            }
        }

        let slice = ObjectSlice(format: .elf, arch: arch, fileRange: 0..<source.size,
                                sections: MachOParser.sortedByOffset(sections),
                                segments: MachOParser.sortedByOffset(segments))
        return ObjectMap(format: .elf, isFat: false, slices: [slice], warnings: warnings)
    }

    /// The NUL-terminated name at `offset` in the string table (its first `maxNameBytes`),
    /// read lazily (a few bytes per section) so a string table that claims gigabytes costs
    /// nothing. nil when out of range.
    private static func sectionName(_ source: ByteSource, table: Range<Int>, offset: UInt32) throws -> ArraySlice<UInt8>? {
        guard Int(offset) < table.count else { return nil }
        let start = table.lowerBound + Int(offset)
        let bytes = try source.read(at: start, count: min(maxNameBytes, table.upperBound - start))
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return bytes[..<end]
    }

    /// Mach-O spellings where the CPU is the same (EM_AARCH64 is `arm64`), so one `--arch`
    /// filter or report column means the same thing across formats.
    static func archName(machine: UInt16, is64: Bool, bigEndian: Bool) -> String {
        switch machine {
        case 3: return "i386"
        case 62: return "x86_64"
        case 183: return bigEndian ? "arm64_be" : "arm64"
        case 40: return bigEndian ? "armeb" : "arm"
        case 243: return is64 ? "riscv64" : "riscv32"
        case 20: return bigEndian ? "ppc" : "ppcle"
        case 21: return bigEndian ? "ppc64" : "ppc64le"
        case 22: return is64 ? "s390x" : "s390"
        case 8: return (is64 ? "mips64" : "mips") + (bigEndian ? "" : "el")
        case 2: return "sparc"
        case 43: return "sparcv9"
        case 258: return "loongarch64"
        case 247: return "bpf"
        case 50: return "ia64"
        default: return "em-\(machine)"
        }
    }
}

/// One section header's fields, widened to 64 bits.
private struct SectionHeader {
    var name: UInt32
    var type: UInt32
    var flags: UInt64
    var addr: UInt64
    var offset: UInt64
    var size: UInt64

    struct Reader {
        let table: BinaryReader
        let base: Int
        let is64: Bool

        func header() throws -> SectionHeader {
            if is64 {
                return SectionHeader(name: try table.u32(base), type: try table.u32(base + 4),
                                     flags: try table.u64(base + 8), addr: try table.u64(base + 16),
                                     offset: try table.u64(base + 24), size: try table.u64(base + 32))
            }
            return SectionHeader(name: try table.u32(base), type: try table.u32(base + 4),
                                 flags: UInt64(try table.u32(base + 8)), addr: UInt64(try table.u32(base + 12)),
                                 offset: UInt64(try table.u32(base + 16)), size: UInt64(try table.u32(base + 20)))
        }
    }
}
