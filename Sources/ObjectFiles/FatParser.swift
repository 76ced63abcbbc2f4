/// Universal (fat) files: a big-endian table of architectures, each slice a Mach-O image (or,
/// for universal static libraries, an `ar` archive) at an absolute file offset.
enum FatParser {
    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf

    /// 0xCAFEBABE is also the Java class file magic; there the next word is the class version
    /// (major 45 or more). LLVM's identify_magic and file(1) tell them apart by this count, and
    /// no universal binary has come close to 43 architectures.
    static let maxArchitectures = 42

    static func parse(_ source: ByteSource) throws -> ObjectMap {
        guard source.size >= 8 else {
            throw ObjectFileError("fat: header truncated (\(source.size) bytes, need 8)")
        }
        let header = BinaryReader(try source.read(at: 0, count: 8), bigEndian: true, context: "fat header")
        let magic = try header.u32(0)
        let count = Int(try header.u32(4))
        let entrySize: Int
        switch magic {
        case fatMagic: entrySize = 20
        case fatMagic64: entrySize = 32
        default: throw ObjectFileError("fat: unknown magic 0x\(String(magic, radix: 16))")
        }
        guard count > 0 else { throw ObjectFileError("fat: header lists no architectures") }
        guard count <= maxArchitectures else {
            throw ObjectFileError("fat: header claims \(count) architectures (at most \(maxArchitectures) accepted)")
        }
        let tableEnd = 8 + count * entrySize
        guard tableEnd <= source.size else {
            throw ObjectFileError("fat: architecture table (\(count) entries) runs past the end of the file (\(source.size) bytes)")
        }
        let table = BinaryReader(try source.read(at: 8, count: count * entrySize), bigEndian: true, context: "fat architecture table")

        struct Entry { var index: Int; var arch: String; var range: Range<Int> }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = index * entrySize
            let cpuType = try table.u32(at)
            let cpuSubtype = try table.u32(at + 4)
            let offset: UInt64, size: UInt64
            if magic == fatMagic64 {
                offset = try table.u64(at + 8)
                size = try table.u64(at + 16)
            } else {
                offset = UInt64(try table.u32(at + 8))
                size = UInt64(try table.u32(at + 12))
            }
            let arch = MachOParser.archName(cpuType: cpuType, cpuSubtype: cpuSubtype)
            guard size > 0 else {
                throw ObjectFileError("fat: slice \(index) (\(arch)) is empty")
            }
            guard let range = Checked.range(base: 0, offset: offset, size: size, within: tableEnd..<source.size) else {
                throw ObjectFileError("fat: slice \(index) (\(arch)) at offset \(offset), size \(size) lies outside the file (\(source.size) bytes) or over the fat header")
            }
            entries.append(Entry(index: index, arch: arch, range: range))
        }
        entries.sort { $0.range.lowerBound < $1.range.lowerBound }
        for (a, b) in zip(entries, entries.dropFirst()) where a.range.overlaps(b.range) {
            throw ObjectFileError("fat: slices \(a.index) (\(a.arch)) and \(b.index) (\(b.arch)) overlap")
        }

        var warnings: [String] = []
        var slices: [ObjectSlice] = []
        for entry in entries {
            let head = try source.read(at: entry.range.lowerBound, count: min(4, entry.range.count))
            let magic = head.count == 4 ? UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24 : 0
            if MachOParser.isThinMagic(magic) {
                do {
                    let slice = try MachOParser.parseImage(source, range: entry.range, warnings: &warnings)
                    if slice.arch != entry.arch {
                        warnings.append("fat: slice \(entry.index) is listed as \(entry.arch) but its header says \(slice.arch ?? "unknown")")
                    }
                    slices.append(slice)
                } catch let error as ObjectFileError {
                    throw ObjectFileError("fat slice \(entry.index) (\(entry.arch)): \(error.message)")
                }
            } else if head.count == 4 && (head[0] == 0xca && head[1] == 0xfe && head[2] == 0xba && (head[3] == 0xbe || head[3] == 0xbf)) {
                throw ObjectFileError("fat: slice \(entry.index) (\(entry.arch)) is itself a fat file")
            } else {
                // Universal static libraries hold `ar` archives; their bytes are still scanned,
                // under the slice's architecture, just without section names.
                slices.append(ObjectSlice(format: .raw, arch: entry.arch, fileRange: entry.range))
            }
        }
        return ObjectMap(format: .machO, isFat: true, slices: slices, warnings: warnings)
    }
}
