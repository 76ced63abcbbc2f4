/// Character classes and quoting rules shared by the reader and the writer, so
/// that what one writes the other reads the same way.
enum Syntax {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22          // "
    static let hash: UInt8 = 0x23           // #
    static let apostrophe: UInt8 = 0x27     // '
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let colon: UInt8 = 0x3A
    static let equals: UInt8 = 0x3D
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    /// TOML forbids raw control characters in strings and comments, tab aside;
    /// newlines are handled separately by each caller.
    @inline(__always)
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    @inline(__always)
    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == minus || byte == underscore
    }

    static func isBareKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte)
    }

    /// A key as it must be written in TOML: bare when possible, else quoted.
    static func key(_ key: String) -> String {
        isBareKey(key) ? key : basicString(key)
    }

    /// A dotted key path as it must be written in TOML.
    static func keyPath(_ path: [String]) -> String {
        path.map(key).joined(separator: ".")
    }


    /// A basic string literal that reads back as exactly `text`. Everything
    /// that could end the string or be taken as an escape is escaped, and so
    /// are control characters, so the result is always a single line.
    static func basicString(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\u{08}": out.append(contentsOf: #"\b"#.unicodeScalars)
            case "\u{0C}": out.append(contentsOf: #"\f"#.unicodeScalars)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out.append(contentsOf: "\\u\(hex(scalar.value, digits: 4))".unicodeScalars)
                } else {
                    out.append(scalar)
                }
            }
        }
        out.append("\"")
        return String(out)
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
