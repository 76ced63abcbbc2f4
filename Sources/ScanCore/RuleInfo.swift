/// What reporters may know of a rule: its public identity, never its examples.
public struct RuleInfo: Sendable, Hashable {
    public var id: String
    public var description: String
    public var tags: [String]
    /// The confidence of its findings when no checksum decides (SARIF `precision`).
    public var confidence: Confidence

    public init(id: String, description: String, tags: [String], confidence: Confidence = .medium) {
        self.id = id
        self.description = description
        self.tags = tags
        self.confidence = confidence
    }
}
