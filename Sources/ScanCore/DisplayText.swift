/// Text from outside keyshape (file and section names, rule ids and descriptions from a
/// rules file, config keys, git's messages) made safe to print on a terminal or in a log:
/// the one escaping function every text output goes through.
///
/// A file name holding a newline could forge a finding line; one holding ESC could move
/// the cursor, erase earlier lines or retitle the terminal. So every character that a
/// terminal acts on instead of showing is written as a visible escape:
///
/// - C0 controls and DEL: `\n`, `\r`, `\t`, else `\x1b`-style;
/// - C1 controls (U+0080 to U+009F, which some terminals take as CSI and friends), the
///   characters that reorder or break lines where they are shown (bidirectional marks,
///   overrides and isolates, U+2028/U+2029), and every character that shows as nothing or
///   as a plain space, so that two different names never look alike: format characters
///   (Unicode category Cf: zero-width space and joiners U+200B-U+200D, word joiner and
///   invisible operators U+2060-U+2064, the byte order mark U+FEFF, soft hyphen, the tag
///   characters U+E0000-U+E007F), the rest of the default-ignorable code points (variation
///   selectors, Hangul fillers, all of U+E0000-U+E0FFF) and spaces other than U+0020 (no-break,
///   em, ideographic): `\u{9b}`-style;
/// - bytes that are not valid UTF-8 (in `escaped(bytes:)`): `\xff`-style;
/// - the backslash itself as `\\`, so an escape in the output always means one character
///   in the name and two different names never print the same.
///
/// Everything else, including non-ASCII letters, is printed as it is.
public enum DisplayText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Raw bytes (a path as the file system spells it): valid UTF-8 is escaped as above,
    /// each byte of an invalid sequence becomes `\xNN`.
    public static func escaped<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        forEachScalar(in: bytes, { append($0, to: &out) }, invalidByte: { out += "\\x" + hex2($0) })
        return out
    }

    /// Raw bytes as text with only the bytes that are not valid UTF-8 written as `\xNN`
    /// (valid text, controls included, is kept as it is: printers escape what they print).
    /// Two byte strings that differ only in such bytes give different text.
    public static func showingInvalidUTF8<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        forEachScalar(in: bytes, { out.unicodeScalars.append($0) }, invalidByte: { out += "\\x" + hex2($0) })
        return out
    }

    /// Decodes `bytes` as UTF-8 with the standard library's parser (Unicode's table 3-7: no
    /// overlong forms, no surrogates, nothing past U+10FFFF), handing on each scalar, and each
    /// byte of a sequence it cannot decode one by one.
    private static func forEachScalar<Bytes: Collection>(in bytes: Bytes, _ scalar: (Unicode.Scalar) -> Void,
                                                          invalidByte: (UInt8) -> Void) where Bytes.Element == UInt8 {
        let raw = Array(bytes)
        var at = 0
        while at < raw.count {
            // A fresh parser per scalar: after an error it tells how many bytes it could not
            // decode, and those are handed on one by one.
            var iterator = raw[at...].makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalar(Unicode.UTF8.decode(encoded))
                at += encoded.count
            case .error(let length):
                for byte in raw[at..<min(raw.count, at + max(1, length))] { invalidByte(byte) }
                at += max(1, length)
            case .emptyInput:
                return
            }
        }
    }

    /// Whether `text` prints as it is (nothing in it would be escaped).
    public static func isPlain(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { !needsEscape($0) }
    }

    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x5c, 0x7f, 0x80...0x9f: return true
        case 0x20..<0x7f: return false
        // Listed as well as found by property below, so they are escaped whatever Unicode
        // version the standard library's tables know: line breaks, bidirectional controls,
        // zero-width characters, the byte order mark, and plane 14 (tags, variation selectors).
        case 0x061c, 0x200b...0x200f, 0x2028, 0x2029, 0x202a...0x202e, 0x2060...0x206f, 0xfeff, 0xe0000...0xe0fff: return true
        default:
            let properties = scalar.properties
            switch properties.generalCategory {
            case .format, .spaceSeparator: return true
            default: return properties.isDefaultIgnorableCodePoint
            }
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        guard needsEscape(scalar) else {
            out.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\\": out += "\\\\"
        default:
            if scalar.value < 0x80 {
                out += "\\x" + hex2(UInt8(scalar.value))
            } else {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
    }

    static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}
