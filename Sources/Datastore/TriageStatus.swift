/// What an auditor decided about a finding (by fingerprint). Only `open` findings are
/// reported by default and fail later scans; the others act as a baseline.
public enum TriageStatus: String, Sendable, Hashable, CaseIterable, Comparable {
    case open
    case accepted
    case falsePositive = "false-positive"
    case revoked
    case fixed

    public var isOpen: Bool { self == .open }

    /// `open|accepted|...`, for help and errors.
    public static var placeholder: String { allCases.map(\.rawValue).joined(separator: "|") }

    public static func < (a: TriageStatus, b: TriageStatus) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
