import ScanCore

/// The ordinal that makes a fingerprint tell apart two values one rule found at one place
/// (`SecretHasher.fingerprint`) without holding either: 0 for the first distinct value, 1 for
/// the next, in the order the input's findings come (the pipeline's order: the same for the
/// same bytes under `scan`, `staged` and `history`). The same value again at that place keeps
/// its ordinal. One per input (a file, a blob at a path, a staged file, a commit's text).
struct FingerprintOrdinals {
    private struct Key: Hashable {
        var rule: String
        var path: [UInt8]
        var qualifier: String?
        var section: String?
    }
    private var seen: [Key: [String: Int]] = [:]

    mutating func reset() { seen.removeAll(keepingCapacity: true) }

    mutating func ordinal(rule: String, location: Location, identity: String) -> Int {
        let place = location.provenance.fingerprintPlace
        let key = Key(rule: rule, path: place.pathBytes, qualifier: place.qualifier, section: location.section)
        if let known = seen[key]?[identity] { return known }
        let next = seen[key]?.count ?? 0
        seen[key, default: [:]][identity] = next
        return next
    }
}
