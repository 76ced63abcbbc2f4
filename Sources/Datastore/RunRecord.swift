import Foundation

/// The repository (or scanned folder) a run's findings belong to.
public struct RepositoryRef: Sendable, Hashable {
    /// An absolute path for what was scanned here; for imported reports, the name given.
    public var root: String
    /// What reports and `--repo` call it: by default the root's last component.
    public var name: String
    /// Stable across clones: the root commit id(s) of a git repository, nil elsewhere.
    public var identity: String?

    public init(root: String, name: String? = nil, identity: String? = nil) {
        self.root = root
        self.name = name ?? RepositoryRef.lastComponent(root)
        self.identity = identity
    }

    static func lastComponent(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }
}

/// What a run says about itself when it starts. `arguments` are flag names only: a flag's
/// value or a positional argument could be a key pasted in the wrong place.
public struct RunStart: Sendable {
    public var command: String
    public var arguments: [String]
    public var keyshapeVersion: String
    /// `Rules/VERSION` of the builtin pack.
    public var rulePack: String
    /// A hash of the loaded rules (builtin and `--rules`), so a changed pack is told apart.
    public var rulesHash: String
    public var repository: RepositoryRef
    public var started: Date

    public init(command: String, arguments: [String], keyshapeVersion: String, rulePack: String, rulesHash: String,
                repository: RepositoryRef, started: Date = Date()) {
        self.command = command
        self.arguments = arguments
        self.keyshapeVersion = keyshapeVersion
        self.rulePack = rulePack
        self.rulesHash = rulesHash
        self.repository = repository
        self.started = started
    }
}

/// A run as recorded.
public struct RunInfo: Sendable, Equatable {
    public var id: Int64
    public var repositoryID: Int64
    public var command: String
    public var arguments: String
    public var rulesHash: String
    public var started: Double
    /// nil for a run that never finished (killed, or still running).
    public var ended: Double?
    public var findings: Int?
    public var errors: Int?
    /// It covered the repository's whole history (no --since or --range, no error).
    public var complete: Bool
    public var commits: Int?
    public var blobs: Int?
}
