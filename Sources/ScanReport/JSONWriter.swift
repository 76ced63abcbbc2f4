import ScanCore

/// A small JSON builder that keeps keys in the order written (reports read better that
/// way and golden files stay stable). Strings are escaped per RFC 8259, and beyond it every
/// character DisplayText escapes (DEL, C1 controls, bidirectional, line-separator, zero-width,
/// tag and other invisible characters) is written as a `\u` escape too: a report shown with
/// `cat` must not drive the terminal nor show two names alike, and the value a JSON parser
/// reads is the same either way.
struct JSONWriter {
    private(set) var text = ""

    enum Value {
        case string(String), int(Int), double(Double), bool(Bool), null
        case object([(String, Value)]), array([Value])
    }

    static func render(_ value: Value, pretty: Bool) -> String {
        var w = JSONWriter()
        w.write(value, indent: pretty ? 0 : nil)
        return w.text
    }

    private mutating func write(_ value: Value, indent: Int?) {
        switch value {
        case .string(let s): writeString(s)
        case .int(let i): text += String(i)
        case .double(let d): text += d.isFinite ? String(format3(d)) : "null"
        case .bool(let b): text += b ? "true" : "false"
        case .null: text += "null"
        case .array(let items):
            if items.isEmpty { text += "[]"; return }
            text += "["
            for (n, item) in items.enumerated() {
                if n > 0 { text += "," }
                newline(indent.map { $0 + 1 })
                write(item, indent: indent.map { $0 + 1 })
            }
            newline(indent)
            text += "]"
        case .object(let pairs):
            if pairs.isEmpty { text += "{}"; return }
            text += "{"
            for (n, (key, item)) in pairs.enumerated() {
                if n > 0 { text += "," }
                newline(indent.map { $0 + 1 })
                writeString(key)
                text += indent == nil ? ":" : ": "
                write(item, indent: indent.map { $0 + 1 })
            }
            newline(indent)
            text += "}"
        }
    }

    private func format3(_ d: Double) -> String {
        let rounded = (d * 1000).rounded() / 1000
        return String(rounded)
    }

    private mutating func newline(_ indent: Int?) {
        guard let indent else { return }
        text += "\n" + String(repeating: "  ", count: indent)
    }

    private mutating func writeString(_ s: String) {
        text += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || DisplayText.needsEscape(scalar) {
                    writeEscape(scalar)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    /// `\uXXXX`, or above U+FFFF the UTF-16 surrogate pair JSON spells it with (a tag
    /// character U+E0041 is `\udb40\udc41`), so the parsed string is the same scalar.
    private mutating func writeEscape(_ scalar: Unicode.Scalar) {
        for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
