/// A problem found while reading a TOML document.
///
/// Messages never quote the input beyond a single character: the values in a
/// scanner's configuration can themselves be secrets, so can a key pasted where
/// a key name goes, and errors end up in logs. The position points at it instead.
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    init(file: String, position: TOMLPosition, message: String) {
        self.init(file: file, line: position.line, column: position.column, message: message)
    }

    public var position: TOMLPosition { TOMLPosition(line: line, column: column) }

    /// `file:line:column: message`, the shape compilers use, so editors can jump to it.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
