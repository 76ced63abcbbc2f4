/// The entry point: the document of a buffer whose content names an app format.
public enum AppFormatParser {
    /// The strings of `bytes` when its magic number names an app format; nil when it names
    /// none. Throws when the structure that every string depends on (a trailer, a header, a
    /// table's bounds) is unusable; damage confined to some strings is in the document's
    /// `warnings` instead, the rest listed. Never traps, whatever the bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> AppDocument? {
        guard let format = AppFormat.sniff(bytes) else { return nil }
        return try parse(bytes, as: format)
    }

    /// The strings of `bytes` read as `format`, whatever its magic number says (the fuzz
    /// harnesses drive each parser so, without wasting inputs on the magic).
    public static func parse(_ bytes: UnsafeRawBufferPointer, as format: AppFormat) throws -> AppDocument {
        switch format {
        case .binaryPlist: return try BinaryPlistParser.parse(bytes)
        case .dex: return try DEXParser.parse(bytes)
        case .javaClass: return try JavaClassParser.parse(bytes)
        case .androidXML, .resourceTable: return try ResourceChunkParser.parse(bytes, format: format)
        }
    }
}
