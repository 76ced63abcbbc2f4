/// The four TOML string forms. Each scanner starts at the opening delimiter
/// and leaves the cursor after the closing one.
extension Scanner {
    /// `"..."`: escapes, no raw newlines or control characters.
    mutating func scanBasicString() throws(TOMLError) -> String {
        let open = index
        index += 1
        // Most strings have no escapes; those are decoded straight from the input.
        var buffer: [UInt8] = []
        var hadEscape = false
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Syntax.quote {
                let text: String
                if hadEscape {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    text = String(decoding: buffer, as: UTF8.self)
                } else {
                    text = String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                index += 1
                return text
            } else if byte == Syntax.backslash {
                buffer.append(contentsOf: bytes[runStart..<index])
                hadEscape = true
                try scanEscape(into: &buffer, multiline: false)
                runStart = index
            } else if byte == Syntax.lineFeed || byte == Syntax.carriageReturn && isAtNewline {
                throw error("newline in a single-line string (missing closing '\"'? use \"\"\" for multi-line strings)")
            } else if Syntax.isControl(byte) {
                throw error("\(describeCurrent) must be escaped in a string")
            } else {
                index += 1
            }
        }
        throw error("unterminated string", at: open)
    }

    /// `'...'`: taken literally, no escapes, no newlines.
    mutating func scanLiteralString() throws(TOMLError) -> String {
        let open = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Syntax.apostrophe {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            } else if byte == Syntax.lineFeed || byte == Syntax.carriageReturn && isAtNewline {
                throw error("newline in a single-line string (missing closing \"'\"? use ''' for multi-line strings)")
            } else if Syntax.isControl(byte) {
                throw error("\(describeCurrent) is not allowed in a literal string")
            } else {
                index += 1
            }
        }
        throw error("unterminated string", at: open)
    }

    /// `"""..."""`: escapes, raw newlines, and a backslash at a line end that
    /// swallows the line break and the indentation after it.
    mutating func scanMultilineBasicString() throws(TOMLError) -> String {
        try scanMultiline(delimiter: Syntax.quote, escapes: true)
    }

    /// `'''...'''`: raw newlines, no escapes.
    mutating func scanMultilineLiteralString() throws(TOMLError) -> String {
        try scanMultiline(delimiter: Syntax.apostrophe, escapes: false)
    }

    /// Shared body of both multi-line forms. Newlines come out as LF whatever
    /// the file used, so a pattern does not change meaning with the checkout's
    /// line endings.
    private mutating func scanMultiline(delimiter: UInt8, escapes: Bool) throws(TOMLError) -> String {
        let open = index
        index += 3
        // A newline right after the opening delimiter is not part of the string.
        consumeNewline()
        var buffer: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == delimiter {
                // One or two delimiters may sit right before the closing three,
                // so the closing delimiter is the last three of a run of up to five.
                var run = 1
                while run < 5, peek(at: run) == delimiter { run += 1 }
                if run >= 3 {
                    buffer.append(contentsOf: repeatElement(delimiter, count: run - 3))
                    index += run
                    return String(decoding: buffer, as: UTF8.self)
                }
                buffer.append(contentsOf: repeatElement(delimiter, count: run))
                index += run
            } else if byte == Syntax.backslash && escapes {
                try scanEscape(into: &buffer, multiline: true)
            } else if byte == Syntax.lineFeed || byte == Syntax.carriageReturn && isAtNewline {
                buffer.append(Syntax.lineFeed)
                consumeNewline()
            } else if Syntax.isControl(byte) {
                throw error("\(describeCurrent) is not allowed in a string")
            } else {
                // Copy the run of ordinary bytes in one go.
                let runStart = index
                index += 1
                while index < bytes.count {
                    let next = bytes[index]
                    if next == delimiter || next == Syntax.backslash || Syntax.isControl(next) { break }
                    index += 1
                }
                buffer.append(contentsOf: bytes[runStart..<index])
            }
        }
        throw error("unterminated multi-line string", at: open)
    }

    /// Decodes the escape at the cursor (a backslash) into `buffer`.
    private mutating func scanEscape(into buffer: inout [UInt8], multiline: Bool) throws(TOMLError) {
        let start = index
        guard let code = peek(at: 1) else { throw error("unterminated string") }
        index += 2
        switch code {
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case Syntax.quote: buffer.append(Syntax.quote)
        case Syntax.backslash: buffer.append(Syntax.backslash)
        case UInt8(ascii: "u"): try scanUnicodeEscape(digits: 4, start: start, into: &buffer)
        case UInt8(ascii: "U"): try scanUnicodeEscape(digits: 8, start: start, into: &buffer)
        case let byte where multiline && (byte == Syntax.space || byte == Syntax.tab
                                          || byte == Syntax.lineFeed || byte == Syntax.carriageReturn):
            // Line-ending backslash: only whitespace may follow it on its line.
            index = start + 1
            skipWhitespace()
            guard consumeNewline() else {
                throw error("a backslash followed by whitespace must be the last thing on its line", at: start)
            }
            while true {
                skipWhitespace()
                if !consumeNewline() { break }
            }
        case 0x21...0x7E:
            throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(code)))'", at: start)
        default:
            throw error("invalid escape sequence: backslash followed by \(describe(at: start + 1))", at: start)
        }
    }

    private mutating func scanUnicodeEscape(digits: Int, start: Int, into buffer: inout [UInt8]) throws(TOMLError) {
        let form = digits == 4 ? "\\u" : "\\U"
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = peek, let digit = Self.hexValue(byte) else {
                throw error("\(form) escape needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\(form) escape is not a Unicode scalar value (surrogates and values above 10FFFF are not allowed)", at: start)
        }
        buffer.append(contentsOf: UTF8.encode(scalar)!)
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }
}
