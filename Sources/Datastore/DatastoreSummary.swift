/// What `summarize` prints: counts by rule, by repository and by secret.
public struct DatastoreSummary: Sendable, Equatable {
    public struct RuleCount: Sendable, Equatable {
        public var rule: String
        public var description: String
        public var findings: Int
        public var open: Int
    }

    public struct RepositoryCount: Sendable, Equatable {
        public var name: String
        public var root: String
        public var findings: Int
        public var open: Int
    }

    /// One key's places: every finding with this secretHash.
    public struct SecretGroup: Sendable, Equatable {
        public var secretHash: String
        public var rules: [String]
        public var places: Int
        public var repositories: Int
        /// The earliest commit date (ISO 8601) of a commit that added it, when history was scanned.
        public var firstCommitted: String?
        /// Whether the latest scan of the sources of a repository holding it still found it;
        /// nil when no repository holding it had its sources scanned.
        public var presentAtHead: Bool?
        public var status: TriageStatus
    }

    public var findings: Int
    public var open: Int
    public var runs: Int
    public var byRule: [RuleCount]
    public var byRepository: [RepositoryCount]
    public var bySecret: [SecretGroup]
}
