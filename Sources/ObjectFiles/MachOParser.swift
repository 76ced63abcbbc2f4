/// Thin Mach-O images: the header, then LC_SEGMENT / LC_SEGMENT_64 load commands and their
/// sections. Other load commands are skipped by size; their data (symbols, code signature)
/// lives inside __LINKEDIT, which the segment list already names.
///
/// Big-endian images (PowerPC, `MH_CIGAM`/`MH_CIGAM_64`) are supported rather than rejected:
/// the layout is identical with swapped integers, and old universal binaries still carry them.
enum MachOParser {
    static let magic32: UInt32 = 0xfeed_face
    static let magic64: UInt32 = 0xfeed_facf
    static let cigam32: UInt32 = 0xcefa_edfe
    static let cigam64: UInt32 = 0xcffa_edfe

    static let lcSegment: UInt32 = 0x1
    static let lcSegment64: UInt32 = 0x19

    /// Real binaries carry well under a megabyte of load commands; the cap keeps a lying
    /// `sizeofcmds` from making us read a whole multi-gigabyte file into memory.
    static let maxLoadCommandBytes = 64 << 20
    static let maxSections = 1 << 16

    /// The Mach-O magic read as the first four bytes in file order, little-endian.
    static func isThinMagic(_ value: UInt32) -> Bool {
        value == magic32 || value == magic64 || value == cigam32 || value == cigam64
    }

    /// Maps the image occupying `range` of `source` (the whole file, or one fat slice).
    /// Offsets inside the image are relative to `range.lowerBound`, as Mach-O defines them.
    static func parseImage(_ source: ByteSource, range: Range<Int>, warnings: inout [String]) throws -> ObjectSlice {
        guard range.count >= 28 else {
            throw ObjectFileError("Mach-O: header truncated (\(range.count) bytes, need at least 28)")
        }
        let first = try source.read(at: range.lowerBound, count: 4)
        let magic = UInt32(first[0]) | UInt32(first[1]) << 8 | UInt32(first[2]) << 16 | UInt32(first[3]) << 24
        let is64: Bool, bigEndian: Bool
        switch magic {
        case magic32: (is64, bigEndian) = (false, false)
        case magic64: (is64, bigEndian) = (true, false)
        case cigam32: (is64, bigEndian) = (false, true)
        case cigam64: (is64, bigEndian) = (true, true)
        default: throw ObjectFileError("Mach-O: unknown magic 0x\(String(magic, radix: 16))")
        }
        let headerSize = is64 ? 32 : 28
        guard range.count >= headerSize else {
            throw ObjectFileError("Mach-O: 64-bit header truncated (\(range.count) bytes, need \(headerSize))")
        }
        let header = BinaryReader(try source.read(at: range.lowerBound, count: headerSize),
                                  bigEndian: bigEndian, context: "Mach-O header")
        let cpuType = try header.u32(4)
        let cpuSubtype = try header.u32(8)
        let ncmds = Int(try header.u32(16))
        let sizeofcmds = Int(try header.u32(20))
        let arch = archName(cpuType: cpuType, cpuSubtype: cpuSubtype)

        guard sizeofcmds <= range.count - headerSize else {
            throw ObjectFileError("Mach-O: sizeofcmds \(sizeofcmds) runs past the end of the image (\(range.count) bytes)")
        }
        guard sizeofcmds <= maxLoadCommandBytes else {
            throw ObjectFileError("Mach-O: sizeofcmds \(sizeofcmds) exceeds the limit of \(maxLoadCommandBytes)")
        }
        // Every load command is at least 8 bytes, so this also bounds the loop below.
        guard ncmds <= sizeofcmds / 8 else {
            throw ObjectFileError("Mach-O: ncmds \(ncmds) cannot fit in sizeofcmds \(sizeofcmds)")
        }
        let commands = BinaryReader(try source.read(at: range.lowerBound + headerSize, count: sizeofcmds),
                                    bigEndian: bigEndian, context: "Mach-O load commands")

        var sections: [ObjectSection] = []
        var segments: [ObjectSection] = []
        var sectionCount = 0
        var segmentOrdinal = 0
        let imageBounds = range
        var offset = 0
        for index in 0..<ncmds {
            guard sizeofcmds - offset >= 8 else {
                throw ObjectFileError("Mach-O: load command \(index) starts past sizeofcmds \(sizeofcmds)")
            }
            let cmd = try commands.u32(offset)
            let cmdsize = Int(try commands.u32(offset + 4))
            guard cmdsize >= 8 else {
                throw ObjectFileError("Mach-O: load command \(index) has size \(cmdsize) (minimum 8)")
            }
            guard cmdsize <= sizeofcmds - offset else {
                throw ObjectFileError("Mach-O: load command \(index) runs past sizeofcmds")
            }
            if cmd == lcSegment || cmd == lcSegment64 {
                let wide = cmd == lcSegment64
                let layout = wide ? SegmentLayout.segment64 : SegmentLayout.segment32
                guard cmdsize >= layout.commandSize else {
                    throw ObjectFileError("Mach-O: segment load command \(index) has size \(cmdsize), less than its header (\(layout.commandSize))")
                }
                let segname = try commands.fixedName(offset + 8, width: 16)
                let vmaddr = try layout.word(commands, offset + 24, wide)
                let fileoff = try layout.word(commands, offset + layout.fileoffAt, wide)
                let filesize = try layout.word(commands, offset + layout.fileoffAt + layout.wordSize, wide)
                let nsects = Int(try commands.u32(offset + layout.nsectsAt))
                guard let sectionBytes = Checked.product(nsects, layout.sectionSize),
                      sectionBytes <= cmdsize - layout.commandSize else {
                    throw ObjectFileError("Mach-O: load command \(index) declares \(nsects) sections that do not fit in its size \(cmdsize)")
                }
                sectionCount += nsects
                guard sectionCount <= maxSections else {
                    throw ObjectFileError("Mach-O: more than \(maxSections) sections")
                }

                // Unnamed (object files) or not a name the linkers define: the ordinal (SectionName).
                let segmentName = SectionName.machOSegment(segname) ?? "SEGMENT[\(segmentOrdinal)]"
                segmentOrdinal += 1
                if filesize > 0 {
                    if let fileRange = Checked.range(base: range.lowerBound, offset: fileoff, size: filesize, within: imageBounds) {
                        segments.append(ObjectSection(name: segmentName, fileRange: fileRange, virtualAddress: vmaddr))
                    } else {
                        warnings.append("\(arch): segment in load command \(index) (file offset \(fileoff), size \(filesize)) lies outside the image; dropped")
                    }
                }

                for s in 0..<nsects {
                    let sectionOrdinal = sectionCount - nsects + s
                    let at = offset + layout.commandSize + s * layout.sectionSize
                    let sectname = try commands.fixedName(at, width: 16)
                    let sectSegname = try commands.fixedName(at + 16, width: 16)
                    let addr = try layout.word(commands, at + 32, wide)
                    let size = try layout.word(commands, at + 32 + layout.wordSize, wide)
                    let fileOffset = UInt64(try commands.u32(at + 32 + 2 * layout.wordSize))
                    let flags = try commands.u32(at + 32 + 2 * layout.wordSize + 16)
                    // Zero-fill sections have no bytes in the file, and offset 0 is the header,
                    // which dSYMs use to mean "no data here".
                    if isZeroFill(flags) || size == 0 || fileOffset == 0 { continue }
                    guard let fileRange = Checked.range(base: range.lowerBound, offset: fileOffset, size: size, within: imageBounds) else {
                        warnings.append("\(arch): section \(s) of load command \(index) (file offset \(fileOffset), size \(size)) lies outside the image; dropped")
                        continue
                    }
                    let name: String
                    if let segment = SectionName.machOSegment(sectSegname), let section = SectionName.machOSection(sectname) {
                        name = segment + "," + section
                    } else {
                        name = "SECTION[\(sectionOrdinal)]"
                    }
                    sections.append(ObjectSection(name: name, fileRange: fileRange, virtualAddress: addr))
                }
            }
            offset += cmdsize
        }

        return ObjectSlice(format: .machO, arch: arch, fileRange: range,
                           sections: sortedByOffset(sections), segments: sortedByOffset(segments))
    }

    static func isZeroFill(_ flags: UInt32) -> Bool {
        let type = flags & 0xff
        return type == 0x1 || type == 0xc || type == 0x12  // S_ZEROFILL, S_GB_ZEROFILL, S_THREAD_LOCAL_ZEROFILL
    }

    static func sortedByOffset(_ regions: [ObjectSection]) -> [ObjectSection] {
        // Stable by original order for equal starts, so maps are deterministic.
        regions.enumerated().sorted {
            ($0.element.fileRange.lowerBound, $0.offset) < ($1.element.fileRange.lowerBound, $1.offset)
        }.map(\.element)
    }

    /// Names from <mach/machine.h>, spelled the way `lipo`, `file` and Xcode spell them.
    static func archName(cpuType: UInt32, cpuSubtype: UInt32) -> String {
        let subtype = cpuSubtype & 0x00ff_ffff  // the high byte holds capability bits (CPU_SUBTYPE_LIB64, PtrAuth ABI)
        switch cpuType {
        case 7: return "i386"
        case 0x0100_0007: return subtype == 8 ? "x86_64h" : "x86_64"
        case 12:
            switch subtype {
            case 5: return "armv4t"
            case 6: return "armv6"
            case 7: return "armv5"
            case 9: return "armv7"
            case 10: return "armv7f"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 13: return "armv8"
            case 14: return "armv6m"
            case 15: return "armv7m"
            case 16: return "armv7em"
            default: return "arm"
            }
        case 0x0100_000c: return subtype == 2 ? "arm64e" : "arm64"
        case 0x0200_000c: return "arm64_32"
        case 18: return "ppc"
        case 0x0100_0012: return "ppc64"
        default: return "cputype-\(cpuType)"
        }
    }
}

/// Field positions that differ between LC_SEGMENT and LC_SEGMENT_64.
private struct SegmentLayout {
    let commandSize: Int
    let sectionSize: Int
    let wordSize: Int
    let fileoffAt: Int
    let nsectsAt: Int

    static let segment32 = SegmentLayout(commandSize: 56, sectionSize: 68, wordSize: 4, fileoffAt: 32, nsectsAt: 48)
    static let segment64 = SegmentLayout(commandSize: 72, sectionSize: 80, wordSize: 8, fileoffAt: 40, nsectsAt: 64)

    func word(_ reader: BinaryReader, _ offset: Int, _ wide: Bool) throws -> UInt64 {
        wide ? try reader.u64(offset) : UInt64(try reader.u32(offset))
    }
}
