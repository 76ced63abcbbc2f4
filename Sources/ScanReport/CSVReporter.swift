import ScanCore

/// `--format csv`: a header row, then one finding a row (RFC 4180: CRLF line ends, a cell
/// holding a comma, quote or line break quoted, quotes doubled).
///
/// Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or
/// carriage return) as a formula, and a file name can start with any of them; such a cell
/// gets a leading `'`, which spreadsheets show as text. Names are escaped with DisplayText
/// first, as in text output, so no control character reaches a terminal that shows the file.
public enum CSVReporter {
    public static let columns = [
        "rule", "description", "fingerprint", "secretHash", "kind", "path", "line", "column", "endLine", "endColumn",
        "byteOffset", "byteLength", "format", "arch", "section", "fileOffset", "virtualAddress",
        "commit", "blob", "author", "email", "date",
    ]

    public static func report(_ result: ScanResult) -> String {
        var out = row(columns)
        for f in result.findings { out += row(cells(f)) }
        return out
    }

    static func cells(_ f: Finding) -> [String] {
        let l = f.location
        let n = { (i: Int?) in i.map(String.init) ?? "" }
        return [
            f.rule, f.description, f.fingerprint, f.secretHash, l.kind.rawValue, l.path ?? "",
            n(l.line), n(l.column), n(l.endLine), n(l.endColumn), String(l.byteOffset), String(l.byteLength),
            l.format ?? "", l.arch ?? "", l.section ?? "", n(l.fileOffset), l.virtualAddress.map { "0x" + String($0, radix: 16) } ?? "",
            l.commit ?? "", l.blob ?? "", l.author ?? "", l.email ?? "", l.date ?? "",
        ]
    }

    static func row(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ raw: String) -> String {
        var text = DisplayText.escaped(raw)
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
