/// What can go wrong talking to git. Messages name the git command, its exit status and,
/// where keyshape recognises the cause, a fixed explanation of keyshape's own. They never
/// quote git's stderr: git quotes repository content there (ref names, paths, config
/// values, a `.git` file's `gitdir:` line), and a hostile repository can plant anything in
/// those, a key included.
public enum GitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `git` executable on PATH.
    case gitNotFound
    /// The path is not inside a git repository (or does not exist, or git cannot open it);
    /// `detail` is keyshape's explanation.
    case notARepository(path: String, detail: String)
    /// Part of the repository that keyshape reads itself (its shallow file) cannot be read.
    case unreadable(path: String, detail: String)
    /// git could not be started.
    case spawnFailed(command: String, errno: Int32)
    /// git exited with a failure status; `reason` is keyshape's explanation, empty when the
    /// cause was not recognised.
    case commandFailed(command: String, status: Int32, reason: String)
    /// git's output did not have the expected shape.
    case unexpectedOutput(command: String, detail: String)
    /// A commit changes more paths than the limit (`CommitLog.maxChangesPerCommit`): the
    /// listing stopped there.
    case tooManyPaths(commit: String, limit: Int)
    /// A listing git was asked for ran past `limit` bytes; git was stopped.
    case outputTooLarge(command: String, limit: Int)

    public var description: String {
        switch self {
        case .gitNotFound:
            return "git not found in PATH (keyshape runs the git binary to read repositories; install git or fix PATH)"
        case .notARepository(let path, let detail):
            return "\(path): not a git repository" + (detail.isEmpty ? "" : " (\(detail))")
        case .unreadable(let path, let detail):
            return "\(path): cannot read the repository (\(detail))"
        case .spawnFailed(let command, let code):
            return "\(command): could not start git (errno \(code))"
        case .commandFailed(let command, let status, let reason):
            return "\(command) failed (exit \(status))"
                + (reason.isEmpty ? "; git's message is not shown (it can quote repository content): run the command in the repository to see it" : ": \(reason)")
        case .unexpectedOutput(let command, let detail):
            return "\(command): unexpected output (\(detail))"
        case .outputTooLarge(let command, let limit):
            return "\(command): more than \(limit) bytes of output (one tree repeated at every level, a \"git bomb\", lists millions of paths from a few kilobytes); stopped"
        case .tooManyPaths(let commit, let limit):
            return "commit \(commit) changes more than \(limit) paths (one tree repeated at every level, a \"git bomb\", lists millions of paths from a few kilobytes); the history was not scanned from there on (--max-commit-paths N raises the limit)"
        }
    }

    /// The causes keyshape recognises in git's stderr (git runs with `LC_ALL=C`), each with
    /// the explanation keyshape prints instead of git's words. First match wins.
    static let knownCauses: [(needle: String, explanation: String)] = [
        ("detected dubious ownership", "the repository is owned by another user (git's safe.directory check); to allow it: git config --global --add safe.directory <path>"),
        ("out of memory", "git ran out of the memory keyshape allows it: a commit lists more paths than --max-commit-paths allows (one tree repeated at every level, a \"git bomb\", lists millions from a few kilobytes)"),
        ("cannot allocate memory", "git ran out of the memory keyshape allows it: a commit lists more paths than --max-commit-paths allows (one tree repeated at every level, a \"git bomb\", lists millions from a few kilobytes)"),
        ("bad config", "git cannot parse the repository's configuration"),
        ("bad numeric config value", "git cannot parse the repository's configuration"),
        ("bad boolean config value", "git cannot parse the repository's configuration"),
        ("unknown repository extension", "the repository uses a format or extension this git does not support"),
        ("repository format version", "the repository uses a format or extension this git does not support"),
        ("invalid gitfile format", "its .git file is not a valid gitdir link"),
        ("not a git repository", "git finds no repository there; a .git file may name a missing folder"),
        ("must be run in a work tree", "the command needs a work tree"),
        ("permission denied", "permission denied reading the repository"),
        ("promisor remote", "an object is missing and would have to be fetched from a promisor remote; keyshape never fetches"),
        ("unable to access", "an object is missing and would have to be fetched; keyshape never fetches"),
        ("transport", "an object is missing and would have to be fetched; keyshape never fetches"),
        ("unable to read", "an object git needs is missing or corrupt"),
        ("bad object", "an object git needs is missing or corrupt"),
        ("missing blob", "an object git needs is missing or corrupt"),
        ("missing tree", "an object git needs is missing or corrupt"),
        ("missing commit", "an object git needs is missing or corrupt"),
        ("could not read", "an object git needs is missing or corrupt"),
        ("corrupt", "an object git needs is missing or corrupt"),
        ("bad revision", "a revision does not name a commit"),
        ("unknown revision", "a revision does not name a commit"),
    ]

    /// keyshape's explanation for git's stderr, or "" when the cause is not recognised.
    /// Only the fixed texts of `knownCauses` come out: nothing of `stderr` itself.
    static func explain(_ stderr: [UInt8]) -> String {
        let text = String(decoding: stderr, as: UTF8.self).lowercased()
        for cause in knownCauses where text.contains(cause.needle) { return cause.explanation }
        return ""
    }

    /// Whether git's stderr says `needle` (for decisions keyshape takes, never for printing).
    static func says(_ stderr: [UInt8], _ needle: String) -> Bool {
        String(decoding: stderr, as: UTF8.self).lowercased().contains(needle)
    }
}
