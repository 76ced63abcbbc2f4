/// One part of a dotted key, with where it was written so that both the
/// resulting table and any error about it can point at it.
struct KeySegment {
    let name: String
    let position: TOMLPosition
}

/// A cursor over the UTF-8 bytes of a document that knows the current line,
/// and the lexical layer of TOML: whitespace, comments, keys and scalar values.
/// Structure (tables, arrays) is the parser's business.
///
/// Working on bytes keeps the hot loops to integer compares; the input is
/// known to be valid UTF-8, so slices cut at ASCII delimiters decode cleanly.
struct Scanner {
    let bytes: [UInt8]
    let file: String
    var index = 0
    private(set) var line = 1
    private(set) var lineStart = 0

    // Columns are counted in scalars, which needs a walk from the line start.
    // Remembering the last answer keeps a long single line linear rather than
    // quadratic when many keys on it ask for their position.
    private var cacheLineStart = -1
    private var cacheIndex = 0
    private var cacheColumn = 1

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    var isAtEnd: Bool { index >= bytes.count }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(at offset: Int) -> UInt8? {
        let target = index + offset
        return target < bytes.count ? bytes[target] : nil
    }

    // MARK: Positions and errors

    mutating func position(of target: Int) -> TOMLPosition {
        let target = min(target, bytes.count)
        guard target >= lineStart else { return Self.recount(bytes, upTo: target) }
        if cacheLineStart != lineStart || cacheIndex > target {
            cacheLineStart = lineStart
            cacheIndex = lineStart
            cacheColumn = 1
        }
        var column = cacheColumn
        var i = cacheIndex
        while i < target {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        cacheIndex = target
        cacheColumn = column
        return TOMLPosition(line: line, column: column)
    }

    var currentPosition: TOMLPosition {
        mutating get { position(of: index) }
    }

    /// Positions on earlier lines are only wanted for rare errors, so they are
    /// worked out from scratch rather than tracked.
    static func recount(_ bytes: [UInt8], upTo target: Int) -> TOMLPosition {
        var line = 1
        var column = 1
        let start = hasByteOrderMark(bytes) ? min(3, target) : 0
        for i in start..<target {
            if bytes[i] == Syntax.lineFeed {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return TOMLPosition(line: line, column: column)
    }

    mutating func error(_ message: String, at target: Int) -> TOMLError {
        TOMLError(file: file, position: position(of: target), message: message)
    }

    mutating func error(_ message: String) -> TOMLError {
        error(message, at: index)
    }

    /// Names what sits at `target` for an error message without quoting more
    /// than one character of the input.
    func describe(at target: Int) -> String {
        guard target < bytes.count else { return "end of input" }
        let byte = bytes[target]
        switch byte {
        case Syntax.lineFeed:
            return "end of line"
        case Syntax.carriageReturn:
            if target + 1 < bytes.count, bytes[target + 1] == Syntax.lineFeed { return "end of line" }
            return "a carriage return without a line feed"
        case _ where Syntax.isControl(byte):
            return "control character U+\(Syntax.hex(UInt32(byte), digits: 4))"
        case Syntax.apostrophe:
            return "\"'\""
        case 0x20...0x7E:
            return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            return "character U+\(Syntax.hex(scalar(at: target), digits: 4))"
        }
    }

    var describeCurrent: String { describe(at: index) }

    /// Decodes the scalar starting at `target` (input is valid UTF-8).
    private func scalar(at target: Int) -> UInt32 {
        let lead = bytes[target]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, target + length <= bytes.count else { return UInt32(lead) }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for i in 1..<length { value = value << 6 | UInt32(bytes[target + i] & 0x3F) }
        return value
    }

    // MARK: Whitespace, comments and line ends

    /// Editors hide a byte order mark, so columns on the first line start after it.
    mutating func skipByteOrderMark() {
        if Self.hasByteOrderMark(bytes) {
            index = 3
            lineStart = 3
        }
    }

    static func hasByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == Syntax.space || bytes[index] == Syntax.tab {
            index += 1
        }
    }

    var isAtNewline: Bool {
        guard let byte = peek else { return false }
        return byte == Syntax.lineFeed || (byte == Syntax.carriageReturn && peek(at: 1) == Syntax.lineFeed)
    }

    /// Consumes LF or CRLF and starts a new line; anything else is left alone.
    @discardableResult
    mutating func consumeNewline() -> Bool {
        guard let byte = peek else { return false }
        if byte == Syntax.lineFeed {
            index += 1
        } else if byte == Syntax.carriageReturn, peek(at: 1) == Syntax.lineFeed {
            index += 2
        } else {
            return false
        }
        line += 1
        lineStart = index
        return true
    }

    /// Skips a comment up to, not including, its line end.
    mutating func skipComment() throws(TOMLError) {
        guard peek == Syntax.hash else { return }
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if !Syntax.isControl(byte) {
                index += 1
            } else if byte == Syntax.lineFeed || isAtNewline {
                return
            } else {
                throw error("\(describeCurrent) is not allowed in a comment")
            }
        }
    }

    /// After a value or header only a comment may follow on the same line.
    mutating func expectLineEnd(after what: String) throws(TOMLError) {
        skipWhitespace()
        try skipComment()
        if isAtEnd || consumeNewline() { return }
        throw error("expected end of line after \(what), found \(describeCurrent)")
    }

    /// Whitespace, comments and newlines: what may sit between array elements.
    mutating func skipTrivia() throws(TOMLError) {
        while true {
            skipWhitespace()
            try skipComment()
            if !consumeNewline() { return }
        }
    }

    // MARK: Keys

    /// A dotted key such as `a."b.c".'d'`, with the whitespace around it.
    mutating func scanKey() throws(TOMLError) -> [KeySegment] {
        var segments: [KeySegment] = []
        while true {
            skipWhitespace()
            if segments.count == Parser.maximumDepth {
                throw error("dotted key has too many parts (limit \(Parser.maximumDepth))")
            }
            segments.append(try scanSimpleKey())
            skipWhitespace()
            guard peek == Syntax.dot else { return segments }
            index += 1
        }
    }

    private mutating func scanSimpleKey() throws(TOMLError) -> KeySegment {
        let start = index
        let position = currentPosition
        switch peek {
        case Syntax.quote?:
            if peek(at: 1) == Syntax.quote, peek(at: 2) == Syntax.quote {
                throw error("a multi-line string cannot be used as a key")
            }
            return KeySegment(name: try scanBasicString(), position: position)
        case Syntax.apostrophe?:
            if peek(at: 1) == Syntax.apostrophe, peek(at: 2) == Syntax.apostrophe {
                throw error("a multi-line string cannot be used as a key")
            }
            return KeySegment(name: try scanLiteralString(), position: position)
        case let byte? where Syntax.isBareKeyByte(byte):
            while index < bytes.count, Syntax.isBareKeyByte(bytes[index]) { index += 1 }
            return KeySegment(name: String(decoding: bytes[start..<index], as: UTF8.self), position: position)
        default:
            throw error("expected a key, found \(describeCurrent)")
        }
    }
}
