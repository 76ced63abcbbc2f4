/// What reporters may know of a rule: its public identity, never its examples.
public struct RuleInfo: Sendable, Hashable {
    public var id: String
    public var description: String
    public var tags: [String]
    /// The confidence of its findings when no checksum decides (SARIF `precision`).
    public var confidence: Confidence
    public var severity: Severity
    /// What to do about a leak, and the provider's documentation (SARIF `help`, `helpUri`).
    public var remediation: String?
    public var docs: String?

    public init(id: String, description: String, tags: [String], confidence: Confidence = .medium,
                severity: Severity = .high, remediation: String? = nil, docs: String? = nil) {
        self.id = id
        self.description = description
        self.tags = tags
        self.confidence = confidence
        self.severity = severity
        self.remediation = remediation
        self.docs = docs
    }
}
