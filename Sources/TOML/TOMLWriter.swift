/// Writes tables as TOML text that `TOMLReader` reads back to an equal table.
public enum TOMLWriter {
    /// Serialises a table back to TOML text that TOMLReader parses to an equal table (positions aside).
    ///
    /// Strings are written as basic strings with escapes, so regexes with
    /// backslashes and quotes round-trip; nested tables become `[a.b]`
    /// sections and arrays of tables `[[a.b]]` sections, in key order, after
    /// the plain values of their parent (TOML leaves no other place for them).
    /// Date-times are written as the text they hold.
    public static func write(_ table: TOMLTable) -> String {
        var out = ""
        writeBody(of: table, path: [], into: &out)
        return out
    }

    private static func writeBody(of table: TOMLTable, path: [String], into out: inout String) {
        for key in table.keys {
            guard let value = table[key], !isSection(value) else { continue }
            out += Syntax.key(key)
            out += " = "
            writeInline(value, into: &out)
            out += "\n"
        }
        for key in table.keys {
            guard let value = table[key] else { continue }
            let childPath = path + [key]
            switch value {
            case .table(let child):
                // A table holding only sub-tables gets no header of its own:
                // theirs create it, and the output reads like hand-written TOML.
                if child.isEmpty || child.keys.contains(where: { !isSection(child[$0]!) }) {
                    writeHeader(childPath, array: false, into: &out)
                }
                writeBody(of: child, path: childPath, into: &out)
            case .array(let elements) where isSection(value):
                for case .table(let element) in elements {
                    writeHeader(childPath, array: true, into: &out)
                    writeBody(of: element, path: childPath, into: &out)
                }
            default:
                continue
            }
        }
    }

    /// Tables and non-empty arrays made only of tables get sections of their
    /// own; everything else is written inline.
    private static func isSection(_ value: TOMLValue) -> Bool {
        switch value {
        case .table:
            return true
        case .array(let elements):
            return !elements.isEmpty && elements.allSatisfy { $0.tableValue != nil }
        default:
            return false
        }
    }

    private static func writeHeader(_ path: [String], array: Bool, into out: inout String) {
        if !out.isEmpty { out += "\n" }
        out += array ? "[[" : "["
        out += Syntax.keyPath(path)
        out += array ? "]]\n" : "]\n"
    }

    /// One value as inline TOML, for debug output.
    static func inline(_ value: TOMLValue) -> String {
        var out = ""
        writeInline(value, into: &out)
        return out
    }

    private static func writeInline(_ value: TOMLValue, into out: inout String) {
        switch value {
        case .string(let text):
            out += Syntax.basicString(text)
        case .integer(let number):
            out += String(number)
        case .float(let number):
            out += format(number)
        case .boolean(let flag):
            out += flag ? "true" : "false"
        case .datetime(let text):
            out += text
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += ", " }
                writeInline(element, into: &out)
            }
            out += "]"
        case .table(let table):
            guard !table.isEmpty else {
                out += "{}"
                return
            }
            out += "{ "
            for (offset, key) in table.keys.enumerated() {
                if offset > 0 { out += ", " }
                out += Syntax.key(key)
                out += " = "
                writeInline(table[key]!, into: &out)
            }
            out += " }"
        }
    }

    /// Swift's shortest round-tripping description is valid TOML except for
    /// the special values, and a whole number must keep a `.0` to stay a float.
    private static func format(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        let text = number.description
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    }
}
