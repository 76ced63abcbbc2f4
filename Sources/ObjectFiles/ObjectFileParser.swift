/// The module's entry point: recognise a binary by its magic number, never its extension, and
/// map it. Everything after the magic is untrusted input.
public enum ObjectFileParser {
    /// How many leading bytes `sniff` needs to decide every case.
    public static let sniffLength = 8

    /// The format named by the magic number in `firstBytes` (pass at least `sniffLength`
    /// bytes when the file has them), or nil when it is none of Mach-O (thin, either byte
    /// order), fat (FAT_MAGIC, FAT_MAGIC_64) or ELF.
    public static func sniff(_ firstBytes: [UInt8]) -> ObjectFormat? {
        guard firstBytes.count >= 4 else { return nil }
        let b = firstBytes
        if b[0] == 0x7f && b[1] == 0x45 && b[2] == 0x4c && b[3] == 0x46 { return .elf }
        let little = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
        if MachOParser.isThinMagic(little) { return .machO }
        let big = little.byteSwapped
        if big == FatParser.fatMagic64 { return .machO }
        if big == FatParser.fatMagic {
            // Shared with Java class files, whose next word is the class version (>= 45).
            guard b.count >= 8 else { return nil }
            let count = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
            return count >= 1 && count <= UInt32(FatParser.maxArchitectures) ? .machO : nil
        }
        return nil
    }

    /// The map of `source`. Files `sniff` does not recognise get a `.raw` map: one slice over
    /// the whole file, no sections, so callers can treat every file alike. Throws
    /// `ObjectFileError` when a recognised file is malformed; the caller should then scan
    /// it as raw bytes and record the error.
    public static func parse(_ source: ByteSource) throws -> ObjectMap {
        let head = try source.read(at: 0, count: min(sniffLength, source.size))
        switch sniff(head) {
        case .elf:
            return try ELFParser.parse(source)
        case .machO:
            if head[0] == 0xca {
                return try FatParser.parse(source)
            }
            var warnings: [String] = []
            let slice = try MachOParser.parseImage(source, range: 0..<source.size, warnings: &warnings)
            return ObjectMap(format: .machO, isFat: false, slices: [slice], warnings: warnings)
        case .raw, nil:
            return ObjectMap(format: .raw, isFat: false,
                             slices: [ObjectSlice(format: .raw, arch: nil, fileRange: 0..<source.size)])
        }
    }
}
