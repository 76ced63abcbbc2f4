/// How bad a leak of this kind of secret is, for triage: SARIF's `security-severity` comes
/// from it (GitHub code scanning maps 9.0+ to critical, 7.0–8.9 high, 4.0–6.9 medium,
/// 0.1–3.9 low).
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case low, medium, high, critical

    /// The `security-severity` score: the middle of code scanning's band, 8.0 for high (what
    /// every rule said before rules had a severity).
    public var securitySeverity: String {
        switch self {
        case .critical: return "9.5"
        case .high: return "8.0"
        case .medium: return "5.5"
        case .low: return "3.0"
        }
    }

    var rank: Int { Severity.allCases.firstIndex(of: self)! }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}
