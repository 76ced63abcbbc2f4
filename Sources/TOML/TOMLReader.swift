/// Reads TOML 1.0 documents into `TOMLTable`s.
public enum TOMLReader {
    /// How deep arrays, inline tables and tables may nest before the reader
    /// gives up with an error rather than risk the stack.
    public static let maximumNestingDepth = Parser.maximumDepth

    /// - Parameter file: used only to label errors.
    /// - Throws: `TOMLError`, and nothing else.
    public static func parse(_ text: String, file: String) throws -> TOMLTable {
        var parser = Parser(bytes: Array(text.utf8), file: file)
        return try parser.parseDocument()
    }

    /// Reads raw file contents, reporting bytes that are not UTF-8 as an error
    /// at their line and column.
    public static func parse(bytes: [UInt8], file: String) throws -> TOMLTable {
        if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
            // Everything before `offset` is valid, so scalars can be counted.
            let position = Scanner.recount(bytes, upTo: offset)
            throw TOMLError(file: file, position: position,
                            message: "invalid UTF-8 (byte 0x\(Syntax.hex(UInt32(bytes[offset]), digits: 2)))")
        }
        var parser = Parser(bytes: bytes, file: file)
        return try parser.parseDocument()
    }

    /// Any byte collection, such as Foundation's `Data`, without this module importing Foundation.
    public static func parse<Bytes: Collection>(bytes: Bytes, file: String) throws -> TOMLTable where Bytes.Element == UInt8 {
        try parse(bytes: Array(bytes), file: file)
    }
}
