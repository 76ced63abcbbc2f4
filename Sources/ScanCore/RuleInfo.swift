/// What reporters may know of a rule: its public identity, never its examples.
public struct RuleInfo: Sendable, Hashable {
    public var id: String
    public var description: String
    public var tags: [String]

    public init(id: String, description: String, tags: [String]) {
        self.id = id
        self.description = description
        self.tags = tags
    }
}
