import ScanCore

/// `--format markdown`: a GitHub-flavoured Markdown summary for a CI job page (GitHub's
/// `$GITHUB_STEP_SUMMARY`, a merge request note): the counts by severity and rule, then one
/// table row per finding with its place and commit, then the scan's errors. Never a value.
///
/// Every name in it comes from the scanned tree or a rules file and is data: it is written
/// as a code span, after DisplayText's escaping (so it is one line and carries no control
/// character). A code span shows its text as it is: no emphasis, link, autolink, HTML tag
/// (`<script>`) or entity is read inside one. Its fence is one backtick longer than the
/// longest run of backticks in the name, so no backtick in a name can close it, and a `|`
/// is written `\|`, which GFM's table parser reads as a pipe inside the cell before the
/// span is parsed (DisplayText has doubled every backslash of the name, so no name can
/// make that backslash escape something else).
public enum MarkdownReporter {
    /// Rows past this many are left out (and counted in a line below the table): GitHub keeps
    /// at most 1 MiB of one step's summary, and a 500-row table is already more than a page
    /// a person reads; the SARIF or JSON report has them all.
    public static let maxRows = 500

    public static func report(_ result: ScanResult) -> String {
        var out = "### keyshape: " + headline(result) + "\n\n"
        if !result.findings.isEmpty {
            out += countsTable(result.findings) + "\n"
            out += findingsTable(result.findings) + "\n"
        }
        if !result.issues.isEmpty {
            out += "**Not everything could be scanned** (exit status 2):\n\n"
            for issue in result.issues.prefix(maxRows) {
                out += "- " + (issue.path.isEmpty ? "" : code(issue.path) + ": ") + code(issue.message) + "\n"
            }
            if result.issues.count > maxRows { out += "- … and \(result.issues.count - maxRows) more\n" }
            out += "\n"
        }
        out += footer(result) + "\n"
        return out
    }

    static func headline(_ result: ScanResult) -> String {
        let n = result.findings.count, e = result.issues.count
        var parts = [n == 0 ? "no secrets found" : "\(n) finding\(n == 1 ? "" : "s")"]
        if e > 0 { parts.append("\(e) error\(e == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// One row per (severity, rule), most severe first, then by rule id.
    static func countsTable(_ findings: [Finding]) -> String {
        struct Key: Hashable { var severity: Severity; var rule: String; var description: String }
        var counts: [Key: Int] = [:]
        for f in findings { counts[Key(severity: f.severity, rule: f.rule, description: f.description), default: 0] += 1 }
        let keys = counts.keys.sorted { ($1.severity, $0.rule, $0.description) < ($0.severity, $1.rule, $1.description) }
        var out = "| severity | rule | description | findings |\n|---|---|---|---:|\n"
        for k in keys {
            out += "| \(k.severity.rawValue) | \(cell(k.rule)) | \(cell(k.description)) | \(counts[k]!) |\n"
        }
        return out
    }

    static func findingsTable(_ findings: [Finding]) -> String {
        var out = "| severity | rule | location | commit | fingerprint |\n|---|---|---|---|---|\n"
        for f in findings.prefix(maxRows) {
            let commit = f.location.commit.map { cell(String($0.prefix(12))) } ?? ""
            out += "| \(f.severity.rawValue) | \(cell(f.rule)) | \(cell(place(f.location), escaped: true)) | \(commit) | \(cell(f.fingerprint)) |\n"
        }
        if findings.count > maxRows {
            out += "\n… and \(findings.count - maxRows) more findings: the SARIF or JSON report lists them all.\n"
        }
        return out
    }

    /// The location's text form (names escaped there) without the short commit that history places start with (the
    /// commit has its own column).
    static func place(_ l: Location) -> String {
        let text = l.text
        guard let commit = l.commit else { return text }
        let prefix = DisplayText.escaped(String(commit.prefix(7))) + " "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    static func footer(_ result: ScanResult) -> String {
        let s = result.stats
        var scanned = "\(s.files) file\(s.files == 1 ? "" : "s")"
        if s.commits > 0 { scanned += ", \(s.commits) commit\(s.commits == 1 ? "" : "s")" }
        if s.blobs > 0 { scanned += ", \(s.blobs) blob\(s.blobs == 1 ? "" : "s")" }
        var line = "Scanned \(scanned) with keyshape \(KeyshapeVersion.current), which reports where secrets are, never what they are."
        let q = s.suppressed
        if q.total > 0 { line += " Suppressed: \(q.total) (allowlist \(q.allowlist), inline \(q.inline), baseline \(q.baseline))." }
        return line
    }

    /// The characters that open markup in GitLab and GitHub Markdown (emphasis, code, links
    /// and images, HTML and entities, tables, strikethrough, headings); CommonMark lets a
    /// backslash escape each, and shows `\*` as `*`.
    static let markupCharacters = #"\`*_[]<>&!|~#"#

    /// Prose from a rules file (a remediation) as Markdown text that reads the same and
    /// forms no markup: escaped with DisplayText, then each markup character backslash-escaped.
    static func plain(_ raw: String) -> String {
        var out = ""
        for ch in DisplayText.escaped(raw).unicodeScalars {
            if markupCharacters.unicodeScalars.contains(ch) { out += "\\" }
            out.unicodeScalars.append(ch)
        }
        return out
    }

    /// A table cell holding `text` as a code span: see the type's comment.
    static func cell(_ text: String, escaped: Bool = false) -> String {
        code(text, escaped: escaped).replacingOccurrences(of: "|", with: "\\|")
    }

    /// `raw` (escaped with DisplayText first, unless `escaped` says it is, as a location's
    /// text is) as a code span whose fence no backtick run in it can match; padded with a
    /// space where it starts or ends with a backtick (CommonMark strips one such space on
    /// each side).
    static func code(_ raw: String, escaped: Bool = false) -> String {
        let text = escaped ? raw : DisplayText.escaped(raw)
        var longest = 0, run = 0
        for ch in text.unicodeScalars {
            if ch == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") || text.isEmpty ? " " : ""
        return fence + pad + text + pad + fence
    }
}
