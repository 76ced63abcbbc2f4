import ScanCore

/// One finding a line, `path:line:column: rule (description) [fingerprint]`, which
/// editors and grep understand; binaries as `path:arch:section+0xOFFSET`.
///
/// Every name in a line (path, arch, section, rule id and description, which come from the
/// scanned tree and from rules files) goes through DisplayText.escaped, so a line is always
/// exactly one finding and carries no terminal control codes.
///
/// With `color`, the location and the rule id are wrapped in SGR codes that keyshape writes
/// itself, around names that are escaped first: a name can still not carry a code of its own.
public enum TextReporter {
    /// Cyan for the place, bold red for the rule, then reset (ECMA-48 SGR).
    static let placeColor = "\u{1B}[36m", ruleColor = "\u{1B}[1;31m", reset = "\u{1B}[0m"

    public static func report(_ result: ScanResult, color: Bool = false) -> String {
        result.findings.map { line($0, color: color) + "\n" }.joined()
    }

    public static func line(_ f: Finding, color: Bool = false) -> String {
        let e = DisplayText.escaped
        let place = place(f.location), rule = e(f.rule)
        guard color else { return "\(place): \(rule) (\(e(f.description))) [\(e(f.fingerprint))]" }
        return "\(placeColor)\(place)\(reset): \(ruleColor)\(rule)\(reset) (\(e(f.description))) [\(e(f.fingerprint))]"
    }

    /// The location's one text form (`Location.text`, names escaped there).
    public static func place(_ l: Location) -> String { l.text }

    /// The one-line summary for stderr.
    public static func summary(_ result: ScanResult) -> String {
        let s = result.stats
        let mb = Double(s.bytes) / 1_000_000
        var parts = ["\(result.findings.count) finding\(result.findings.count == 1 ? "" : "s")"]
        if !result.issues.isEmpty { parts.append("\(result.issues.count) error\(result.issues.count == 1 ? "" : "s")") }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var scanned = count(s.files, "file")
        if s.binaries > 0 { scanned += " (\(s.binaries) binary)" }
        if s.commits > 0 { scanned += ", " + count(s.commits, "commit") }
        if s.blobs > 0 { scanned += ", " + count(s.blobs, "blob") }
        scanned += ", " + String(format1(mb)) + " MB in " + String(format1(s.seconds)) + " s"
        var line = "keyshape: " + parts.joined(separator: ", ") + "; scanned " + scanned
        // Never dropped silently: what allowlists, inline markers and the baseline kept out.
        let q = s.suppressed
        if q.total > 0 { line += "; suppressed \(q.total) (allowlist \(q.allowlist), inline \(q.inline), baseline \(q.baseline))" }
        if s.allowlistedFiles > 0 { line += "; \(s.allowlistedFiles) not read (allowlisted by path)" }
        return line
    }

    static func format1(_ d: Double) -> String {
        let r = (d * 10).rounded() / 10
        return String(r)
    }
}
