/// Everything a reporter needs, and nothing that could hold a secret.
public struct ScanResult: Sendable {
    public var findings: [Finding]
    public var issues: [ScanIssue]
    public var stats: ScanStats
    /// The rules that were loaded, for SARIF's `tool.driver.rules`.
    public var rules: [RuleInfo]
    /// Suppressed findings, only when the run asked to keep them (`ScanOptions.keepSuppressed`);
    /// their counts are in `stats.suppressed` either way.
    public var suppressed: [SuppressedFinding] = []

    public init(findings: [Finding] = [], issues: [ScanIssue] = [], stats: ScanStats = ScanStats(), rules: [RuleInfo] = []) {
        self.findings = findings
        self.issues = issues
        self.stats = stats
        self.rules = rules
    }
}

public enum KeyshapeVersion {
    public static let current = "0.2.0"
}
