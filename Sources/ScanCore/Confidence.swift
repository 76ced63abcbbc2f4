/// How sure a finding is to be a real credential: a gate picks its threshold with
/// `--min-confidence`. Ordered low < medium < high.
public enum Confidence: String, Sendable, Hashable, Comparable, CaseIterable {
    case low, medium, high

    var rank: Int {
        switch self {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    public static func < (a: Confidence, b: Confidence) -> Bool { a.rank < b.rank }
}
