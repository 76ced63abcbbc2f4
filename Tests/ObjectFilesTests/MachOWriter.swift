/// Writes minimal Mach-O images for the tests: MH_EXECUTE with real segments cannot be linked
/// on Linux (ld64.lld refuses Apple platforms here), and crafted fat/big-endian files need
/// exact control over every field. Layout follows ld64: __TEXT maps the file from offset 0,
/// so a section's address is the segment's vmaddr plus its offset within the segment.
struct MachOWriter {
    struct Section {
        var segname: String
        var sectname: String
        var data: [UInt8]
        var zeroFill = false
    }

    struct Segment {
        var name: String
        var vmaddr: UInt64
        var vmsize: UInt64
        var sections: [Section] = []
        /// Bytes after the sections (e.g. __LINKEDIT's symbol table and strings).
        var trailing: [UInt8] = []
        /// __TEXT starts at file offset 0 and covers the header and load commands.
        var mapsHeader = false
    }

    var is64 = true
    var bigEndian = false
    var cpuType: UInt32 = 0x0100_000c   // arm64
    var cpuSubtype: UInt32 = 0
    var fileType: UInt32 = 2             // MH_EXECUTE
    var segments: [Segment] = []
    /// Extra load commands written after the segments, as given (cmd, payload).
    var otherCommands: [(cmd: UInt32, payload: [UInt8])] = []

    /// Where things landed: "SEG,sect" and "SEG" → (file offset, address, size).
    struct Placement: Equatable { var offset: Int; var address: UInt64; var size: Int }

    func build() -> (bytes: [UInt8], placed: [String: Placement]) {
        let headerSize = is64 ? 32 : 28
        let segmentCommandSize = is64 ? 72 : 56
        let sectionSize = is64 ? 80 : 68
        var sizeofcmds = 0
        for segment in segments { sizeofcmds += segmentCommandSize + segment.sections.count * sectionSize }
        for other in otherCommands { sizeofcmds += 8 + other.payload.count }

        // Lay out file contents.
        var placed: [String: Placement] = [:]
        struct SegmentLayout { var fileoff = 0; var filesize = 0; var sections: [(offset: Int, addr: UInt64)] = [] }
        var layouts: [SegmentLayout] = []
        var body: [(offset: Int, bytes: [UInt8])] = []
        var cursor = headerSize + sizeofcmds
        for segment in segments {
            var layout = SegmentLayout()
            let hasFileData = !segment.trailing.isEmpty || segment.sections.contains { !$0.zeroFill }
            if segment.mapsHeader {
                layout.fileoff = 0
            } else if hasFileData {
                cursor = (cursor + 15) & ~15
                layout.fileoff = cursor
            }
            for section in segment.sections where !section.zeroFill {
                cursor = (cursor + 15) & ~15
                layout.sections.append((cursor, segment.vmaddr + UInt64(cursor - layout.fileoff)))
                body.append((cursor, section.data))
                placed["\(section.segname),\(section.sectname)"] = Placement(offset: cursor, address: segment.vmaddr + UInt64(cursor - layout.fileoff), size: section.data.count)
                cursor += section.data.count
            }
            if !segment.trailing.isEmpty {
                body.append((cursor, segment.trailing))
                cursor += segment.trailing.count
            }
            layout.filesize = (segment.mapsHeader || hasFileData) ? cursor - layout.fileoff : 0
            // Zero-fill sections sit in memory after the file-backed part.
            var zeroAddr = segment.vmaddr + UInt64(layout.filesize)
            for section in segment.sections where section.zeroFill {
                layout.sections.append((0, zeroAddr))
                zeroAddr += UInt64(section.data.count)
            }
            placed[segment.name] = Placement(offset: layout.fileoff, address: segment.vmaddr, size: layout.filesize)
            layouts.append(layout)
        }

        var out: [UInt8] = []
        out.appendU32(is64 ? 0xfeed_facf : 0xfeed_face, bigEndian: bigEndian)
        out.appendU32(cpuType, bigEndian: bigEndian)
        out.appendU32(cpuSubtype, bigEndian: bigEndian)
        out.appendU32(fileType, bigEndian: bigEndian)
        out.appendU32(UInt32(segments.count + otherCommands.count), bigEndian: bigEndian)
        out.appendU32(UInt32(sizeofcmds), bigEndian: bigEndian)
        out.appendU32(0, bigEndian: bigEndian)  // flags
        if is64 { out.appendU32(0, bigEndian: bigEndian) }

        func word(_ value: UInt64) {
            if is64 { out.appendU64(value, bigEndian: bigEndian) } else { out.appendU32(UInt32(truncatingIfNeeded: value), bigEndian: bigEndian) }
        }
        for (segment, layout) in zip(segments, layouts) {
            out.appendU32(is64 ? 0x19 : 0x1, bigEndian: bigEndian)
            out.appendU32(UInt32(segmentCommandSize + segment.sections.count * sectionSize), bigEndian: bigEndian)
            out.appendName16(segment.name)
            word(segment.vmaddr)
            word(segment.vmsize)
            word(UInt64(layout.fileoff))
            word(UInt64(layout.filesize))
            out.appendU32(7, bigEndian: bigEndian)  // maxprot
            out.appendU32(5, bigEndian: bigEndian)  // initprot
            out.appendU32(UInt32(segment.sections.count), bigEndian: bigEndian)
            out.appendU32(0, bigEndian: bigEndian)
            var fileBacked = layout.sections.makeIterator()
            for section in segment.sections {
                let place = fileBacked.next()!
                out.appendName16(section.sectname)
                out.appendName16(section.segname)
                word(place.addr)
                word(UInt64(section.data.count))
                out.appendU32(UInt32(place.offset), bigEndian: bigEndian)
                out.appendU32(4, bigEndian: bigEndian)  // align 2^4
                out.appendU32(0, bigEndian: bigEndian)  // reloff
                out.appendU32(0, bigEndian: bigEndian)  // nreloc
                out.appendU32(section.zeroFill ? 0x1 : (section.sectname == "__cstring" ? 0x2 : 0), bigEndian: bigEndian)
                out.appendU32(0, bigEndian: bigEndian)
                out.appendU32(0, bigEndian: bigEndian)
                if is64 { out.appendU32(0, bigEndian: bigEndian) }
            }
        }
        for other in otherCommands {
            out.appendU32(other.cmd, bigEndian: bigEndian)
            out.appendU32(UInt32(8 + other.payload.count), bigEndian: bigEndian)
            out += other.payload
        }
        precondition(out.count == headerSize + sizeofcmds)
        out += [UInt8](repeating: 0, count: cursor - out.count)
        for chunk in body { out.replaceSubrange(chunk.offset..<(chunk.offset + chunk.bytes.count), with: chunk.bytes) }
        return (out, placed)
    }

    /// A typical executable: __PAGEZERO, __TEXT (__text, __cstring, __ustring), __DATA (__data,
    /// zero-fill __bss), __LINKEDIT, plus an LC_UUID that the parser must skip.
    static func executable(is64: Bool = true, bigEndian: Bool = false,
                           cpuType: UInt32 = 0x0100_000c, cpuSubtype: UInt32 = 0,
                           cstrings: [UInt8], ustring: [UInt8] = [], data: [UInt8], linkedit: [UInt8]) -> MachOWriter {
        let base: UInt64 = is64 ? 0x1_0000_0000 : 0x1000
        var writer = MachOWriter(is64: is64, bigEndian: bigEndian, cpuType: cpuType, cpuSubtype: cpuSubtype)
        var textSections = [
            Section(segname: "__TEXT", sectname: "__text", data: [0x1f, 0x20, 0x03, 0xd5, 0xc0, 0x03, 0x5f, 0xd6]),
            Section(segname: "__TEXT", sectname: "__cstring", data: cstrings),
        ]
        if !ustring.isEmpty { textSections.append(Section(segname: "__TEXT", sectname: "__ustring", data: ustring)) }
        writer.segments = [
            Segment(name: "__PAGEZERO", vmaddr: 0, vmsize: base),
            Segment(name: "__TEXT", vmaddr: base, vmsize: 0x4000, sections: textSections, mapsHeader: true),
            Segment(name: "__DATA", vmaddr: base + 0x4000, vmsize: 0x4000, sections: [
                Section(segname: "__DATA", sectname: "__data", data: data),
                Section(segname: "__DATA", sectname: "__bss", data: [UInt8](repeating: 0, count: 64), zeroFill: true),
            ]),
            Segment(name: "__LINKEDIT", vmaddr: base + 0x8000, vmsize: 0x4000, trailing: linkedit),
        ]
        writer.otherCommands = [(cmd: 0x1b, payload: [UInt8](repeating: 0xab, count: 16))]  // LC_UUID
        return writer
    }

    /// A universal file around `slices` (cputype, cpusubtype, image), each aligned to 2^alignLog2.
    static func fat(_ slices: [(cpuType: UInt32, cpuSubtype: UInt32, image: [UInt8])], wide: Bool = false,
                    alignLog2: Int = 8) -> (bytes: [UInt8], offsets: [Int]) {
        let entrySize = wide ? 32 : 20
        let alignment = 1 << alignLog2
        var cursor = 8 + slices.count * entrySize
        var offsets: [Int] = []
        for slice in slices {
            cursor = (cursor + alignment - 1) & ~(alignment - 1)
            offsets.append(cursor)
            cursor += slice.image.count
        }
        var out: [UInt8] = []
        out.appendU32(wide ? 0xcafe_babf : 0xcafe_babe, bigEndian: true)
        out.appendU32(UInt32(slices.count), bigEndian: true)
        for (slice, offset) in zip(slices, offsets) {
            out.appendU32(slice.cpuType, bigEndian: true)
            out.appendU32(slice.cpuSubtype, bigEndian: true)
            if wide {
                out.appendU64(UInt64(offset), bigEndian: true)
                out.appendU64(UInt64(slice.image.count), bigEndian: true)
                out.appendU32(UInt32(alignLog2), bigEndian: true)
                out.appendU32(0, bigEndian: true)
            } else {
                out.appendU32(UInt32(offset), bigEndian: true)
                out.appendU32(UInt32(slice.image.count), bigEndian: true)
                out.appendU32(UInt32(alignLog2), bigEndian: true)
            }
        }
        for (slice, offset) in zip(slices, offsets) {
            out += [UInt8](repeating: 0, count: offset - out.count)
            out += slice.image
        }
        return (out, offsets)
    }
}
