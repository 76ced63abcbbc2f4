/// A baseline entry that names a place rather than a fingerprint: gitleaks' `.gitleaksignore`
/// lines (`commit:path:rule:line`, `path:rule:line`) and the findings of a gitleaks JSON report.
/// A finding it covers is suppressed as baseline (counted, never dropped silently).
public struct BaselineEntry: Sendable, Hashable {
    /// The commit (full or abbreviated, at least 7 hex digits), for history findings.
    public var commit: String?
    public var path: String
    public var rule: String
    /// 1-based, as gitleaks counts; nil or 0 when the entry names no line.
    public var line: Int?

    public init(commit: String? = nil, path: String, rule: String, line: Int?) {
        self.commit = commit.map { $0.lowercased() }
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        self.path = p
        self.rule = rule
        self.line = line
    }

    /// The entry with `root/` taken off the front of its path: gitleaks reports `dir SRC`
    /// paths with SRC in front, keyshape relative to the scanned root.
    public func relative(to root: String) -> BaselineEntry {
        var r = root
        while r.hasPrefix("./") { r.removeFirst(2) }
        while r.hasSuffix("/") && r.count > 1 { r.removeLast() }
        guard !r.isEmpty, r != ".", path.hasPrefix(r + "/") else { return self }
        var copy = self
        copy.path = String(path.dropFirst(r.count + 1))
        return copy
    }

    /// Same rule, same path, same line (an entry without one: any line), and for an entry with
    /// a commit the same commit.
    public func covers(_ finding: Finding) -> Bool {
        guard finding.rule == rule, let path = finding.location.path, self.path == path else { return false }
        if let line, line > 0 {
            // A path-only finding (no line) is gitleaks' line 0 or 1.
            if (finding.location.line ?? 1) != line { return false }
        }
        if let commit {
            guard let found = finding.location.commit, commit.count >= 7, found.hasPrefix(commit) else { return false }
        }
        return true
    }
}
