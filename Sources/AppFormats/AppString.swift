/// One string (or `data` object) of an app-format file: where its bytes are in the file and
/// how they are encoded. Never a copy of the bytes: the scanner reads them from the buffer
/// the document was parsed from.
public struct AppString: Sendable, Hashable {
    public enum Encoding: UInt8, Sendable, Hashable {
        /// ASCII, UTF-8 or modified UTF-8 (DEX, class files): one byte a byte; the modified
        /// forms differ from UTF-8 only outside ASCII, where no key's characters are.
        case utf8
        /// Two bytes a code unit, most significant first (property lists).
        case utf16BE
        /// Two bytes a code unit, least significant first (Android string pools).
        case utf16LE
        /// Bytes, not text (a property list's `data`): scanned as a buffer of their own.
        case data
    }

    /// Offset of the first byte of the string's characters (after any length prefix).
    public var offset: Int
    /// Bytes the characters take in the file (twice the code units for UTF-16).
    public var length: Int
    public var encoding: Encoding
    /// Index into `AppDocument.places`, or -1 when the string has no place name.
    public var place: Int32
    /// A property list dict's value (not its key): its key is the place's last component.
    public var isDictValue: Bool

    public init(offset: Int, length: Int, encoding: Encoding, place: Int32, isDictValue: Bool = false) {
        self.offset = offset
        self.length = length
        self.encoding = encoding
        self.place = place
        self.isDictValue = isDictValue
    }

    public var end: Int { offset + length }
}
