/// Why a finding was not reported. Every suppressed finding is counted under the first of
/// these that applied, in the order the pipeline meets them: allowlist, inline marker,
/// baseline. Nothing is dropped silently: the counts are in `ScanStats.suppressed`, and
/// with `--include-suppressed` the findings themselves go to the report, marked.
public enum Suppression: String, Sendable, Hashable, CaseIterable {
    /// A global allowlist: the config file's `[[allowlists]]`, or a rule file's top-level
    /// `[allowlist]` / `[[allowlists]]`. (A rule's own `[[rules.allowlists]]` belong to its
    /// definition: what they drop is no finding, and is not counted.)
    case allowlist
    /// `keyshape:allow` or `gitleaks:allow` on the finding's line.
    case inline
    /// Its fingerprint is listed in the `--baseline` file.
    case baseline
}

/// How many findings each mechanism suppressed.
public struct SuppressionCounts: Sendable, Equatable {
    public var allowlist = 0
    public var inline = 0
    public var baseline = 0

    public init(allowlist: Int = 0, inline: Int = 0, baseline: Int = 0) {
        self.allowlist = allowlist
        self.inline = inline
        self.baseline = baseline
    }

    public var total: Int { allowlist + inline + baseline }

    public subscript(kind: Suppression) -> Int {
        get {
            switch kind {
            case .allowlist: return allowlist
            case .inline: return inline
            case .baseline: return baseline
            }
        }
        set {
            switch kind {
            case .allowlist: allowlist = newValue
            case .inline: inline = newValue
            case .baseline: baseline = newValue
            }
        }
    }

    public mutating func add(_ other: SuppressionCounts) {
        allowlist += other.allowlist
        inline += other.inline
        baseline += other.baseline
    }
}

/// A finding that was not reported, and why (kept only when the run asked for them).
public struct SuppressedFinding: Sendable, Hashable, Comparable {
    public var finding: Finding
    public var suppression: Suppression

    public init(_ finding: Finding, _ suppression: Suppression) {
        self.finding = finding
        self.suppression = suppression
    }

    public static func < (a: SuppressedFinding, b: SuppressedFinding) -> Bool {
        a.finding != b.finding ? a.finding < b.finding : a.suppression.rawValue < b.suppression.rawValue
    }
}
