import Foundation
import ScanCore

/// gitleaks' baselines: a `.gitleaksignore` file and a gitleaks JSON report. Neither holds
/// keyshape fingerprints, so they are read as places (BaselineEntry): rule id, path, line,
/// and commit for history.
public enum GitleaksBaseline {
    /// `.gitleaksignore`: one gitleaks fingerprint a line, `commit:path:rule:line` or
    /// `path:rule:line`; `#` comments and blank lines skipped. A path may hold `:`, so the line
    /// is read from the right; a first field of 40 hex digits (with four fields or more) is the
    /// commit. A line of another shape is a warning naming its number, never its text (the
    /// file comes from the scanned tree).
    public static func parseIgnoreFile(_ text: String, path: String) -> (entries: [BaselineEntry], warnings: [String]) {
        var entries: [BaselineEntry] = []
        var warnings: [String] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            var fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, let number = Int(fields.removeLast()), number >= 0, !fields.last!.isEmpty else {
                warnings.append("\(path):\(n + 1): warning: not a gitleaks fingerprint (commit:path:rule:line or path:rule:line); line ignored")
                continue
            }
            let rule = fields.removeLast()
            var commit: String?
            if fields.count >= 2, fields[0].count == 40, fields[0].allSatisfy(\.isHexDigit) { commit = fields.removeFirst() }
            let file = fields.joined(separator: ":")
            guard !file.isEmpty else {
                warnings.append("\(path):\(n + 1): warning: not a gitleaks fingerprint (no path); line ignored")
                continue
            }
            entries.append(BaselineEntry(commit: commit, path: file, rule: rule, line: number))
        }
        return (entries, warnings)
    }

    /// A gitleaks JSON report (`--report-format json`): an array of findings with `RuleID`,
    /// `File`, `StartLine` and, from `gitleaks git`, `Commit`. nil when `object` is not one.
    public static func entries(fromReport object: Any) -> [BaselineEntry]? {
        guard let findings = object as? [Any] else { return nil }
        var entries: [BaselineEntry] = []
        for item in findings {
            guard let f = item as? [String: Any], let rule = f["RuleID"] as? String, let file = f["File"] as? String else { return nil }
            let commit = (f["Commit"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            entries.append(BaselineEntry(commit: commit, path: file, rule: rule, line: f["StartLine"] as? Int))
        }
        return entries
    }
}
