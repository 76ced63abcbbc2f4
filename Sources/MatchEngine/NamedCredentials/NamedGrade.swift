import ScanCore

/// A named-credential match's grade (confidence and provider label) as one integer, for
/// records that keep findings across runs: 0 for none (a regex rule's match), else the
/// confidence's rank plus one in the low two bits and the provider index plus one above.
public struct NamedGrade: Sendable, Hashable {
    public var confidence: Confidence?
    public var provider: Int?

    public init(confidence: Confidence?, provider: Int?) {
        self.confidence = confidence
        self.provider = provider
    }

    public static func code(confidence: Confidence?, provider: Int?) -> UInt64 {
        guard let confidence else { return 0 }
        let rank: UInt64 = confidence == .low ? 1 : confidence == .medium ? 2 : 3
        return UInt64(provider.map { $0 + 1 } ?? 0) << 2 | rank
    }

    /// nil for a code no grade has (a damaged record).
    public init?(code: UInt64) {
        if code == 0 { confidence = nil; provider = nil; return }
        switch code & 3 {
        case 1: confidence = .low
        case 2: confidence = .medium
        case 3: confidence = .high
        default: return nil
        }
        let p = code >> 2
        guard p <= 1 << 20 else { return nil }
        provider = p == 0 ? nil : Int(p - 1)
    }
}
