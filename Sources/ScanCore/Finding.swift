/// One reported secret: a rule, a place and two hashes. The value itself was dropped by
/// the scanner before this was built, so nothing downstream can print it.
public struct Finding: Sendable, Hashable {
    public var rule: String
    public var description: String
    /// Stable across line moves: derived from rule, path (or section) and secretHash.
    public var fingerprint: String
    /// Same value, same hash, wherever it appears; keyed and stretched so a guess is costly to confirm.
    public var secretHash: String
    public var location: Location
    /// How sure this is a real credential: the rule's, or its checksum's verdict.
    public var confidence: Confidence
    /// Whether the format's documented checksum holds; nil when the rule has none.
    public var checksum: Bool?
    /// The rule's severity.
    public var severity: Severity

    public init(rule: String, description: String, fingerprint: String, secretHash: String, location: Location,
                confidence: Confidence = .medium, checksum: Bool? = nil, severity: Severity = .high) {
        self.rule = rule
        self.description = description
        self.fingerprint = fingerprint
        self.secretHash = secretHash
        self.location = location
        self.confidence = confidence
        self.checksum = checksum
        self.severity = severity
    }
}

extension Finding: Comparable {
    public static func < (a: Finding, b: Finding) -> Bool {
        if a.location != b.location { return a.location < b.location }
        return a.rule < b.rule
    }
}
