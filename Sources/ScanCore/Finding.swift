/// One reported secret: a rule, a place and two hashes. The value itself was dropped by
/// the scanner before this was built, so nothing downstream can print it.
public struct Finding: Sendable, Hashable {
    public var rule: String
    public var description: String
    /// Stable across line moves, runs and machines: rule, place (path, section) and the
    /// value's ordinal among the rule's values there; no value goes in.
    public var fingerprint: String
    /// Same value, same hash, wherever it appears in one run (and across runs under the user's
    /// or the datastore's key): an HMAC under a key the report's reader does not have.
    public var secretHash: String
    /// What a baseline written from this finding lists to recognise its value: a check keyed
    /// with the baseline's own key (see `SecretHasher.baselineCheck`); nil when the run writes
    /// or reads no baseline. Written to baseline files only, never to a report.
    public var baselineCheck: String?
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
