/// A detection rule: data with its own examples, loaded from TOML.
public struct Rule: Sendable {
    public var id: String
    public var description: String
    public var regex: Regex
    /// Which capture group is the secret; nil means the first non-empty group, or the
    /// whole match when the pattern has no groups (gitleaks' behaviour).
    public var secretGroup: Int?
    /// Minimum Shannon entropy (bits per byte) of the secret.
    public var entropy: Double?
    /// Lowercase literals; the rule runs only on buffers containing one of them.
    public var keywords: [String]
    /// Only paths matching this run the rule.
    public var path: Regex?
    public var tags: [String]
    public var allowlists: [Allowlist]
    /// Texts with one secret marked «like this» that the rule must find, exactly there.
    public var examples: [String]
    /// Texts no rule of the pack may report.
    public var negativeExamples: [String]
    public var source: SourcePosition
    /// gitleaks' path-only rule (`path` and no `regex`): a file whose path matches is itself
    /// the finding (a `.p12` holds keys whatever its bytes look like). Its `regex` is a
    /// placeholder the matcher never runs.
    public var pathOnly = false
    /// gitleaks' `[[rules.required]]`: this rule reports a match only when each of these
    /// rules also matches in the same buffer, within the window each one gives.
    public var required: [RequiredRule] = []
    /// gitleaks' `skipReport`: the rule only serves as another rule's required component
    /// and reports nothing itself.
    public var skipReport = false

    public init(id: String, description: String, regex: Regex, secretGroup: Int? = nil, entropy: Double? = nil,
                keywords: [String] = [], path: Regex? = nil, tags: [String] = [], allowlists: [Allowlist] = [],
                examples: [String] = [], negativeExamples: [String] = [], source: SourcePosition = SourcePosition(file: "", line: 0)) {
        self.id = id
        self.description = description
        self.regex = regex
        self.secretGroup = secretGroup
        self.entropy = entropy
        self.keywords = keywords
        self.path = path
        self.tags = tags
        self.allowlists = allowlists
        self.examples = examples
        self.negativeExamples = negativeExamples
        self.source = source
    }
}

/// One `[[rules.required]]` entry: a rule that must also match near the primary match.
/// `withinLines` bounds the distance between the two matches' first lines, `withinColumns`
/// the distance between their first columns (both: a rectangle; neither: anywhere in the
/// buffer), as gitleaks measures them.
public struct RequiredRule: Sendable, Hashable {
    public var id: String
    public var withinLines: Int?
    public var withinColumns: Int?

    public init(id: String, withinLines: Int? = nil, withinColumns: Int? = nil) {
        self.id = id
        self.withinLines = withinLines
        self.withinColumns = withinColumns
    }
}

/// Where a rule or setting was written, so errors can point at it.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
