/// A problem with what was asked of history (a revision that names no commit, a range
/// that is not `A..B`): the scan does not start.
public struct RevisionRequestError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}

extension CommitSelection {
    /// The commits `--since REV` (repeatable) and `--range A..B` / `--range B` name, each
    /// revision resolved to a commit first (one starting with `-` is refused, so it can
    /// never reach git as an option). A zero id stands for a ref that does not exist yet or
    /// any more, as hooks pass them: `A..0` and `0` scan nothing; a zero or empty lower bound
    /// (`0..B`, `..B`, `--since ""`: a new branch's first push, as git and the pre-commit
    /// framework give it) is never an error: in a bare repository (a server's pre-receive hook,
    /// where the pushed commits are on no ref yet) it means what no ref reaches, elsewhere what
    /// no remote-tracking ref reaches (the commits not pushed anywhere yet; all of them when
    /// the clone tracks no remote).
    /// - Throws: `RevisionRequestError` for a revision that names no commit, a malformed
    ///   range, or `allObjects` with a range (the whole object store has no range).
    public static func parse(_ git: Git, since: [String], ranges: [String], allObjects: Bool) throws -> CommitSelection {
        var s = CommitSelection()
        if since.isEmpty && ranges.isEmpty { return s }
        if allObjects { throw RevisionRequestError(message: "--all-objects scans the whole object store; it cannot be combined with --since or --range") }
        func commit(_ rev: String, _ flag: String) throws -> String {
            guard !rev.isEmpty, !rev.hasPrefix("-"), let id = try git.resolveCommit(rev) else {
                throw RevisionRequestError(message: "\(flag) \(rev): not a commit in \(git.root)")
            }
            return id.hex
        }
        s.allRefsAndReflogs = ranges.isEmpty
        func excludeUnpushed() { if git.isBare { s.excludeAllRefs = true } else { s.excludeRemoteRefs = true } }
        func isNoCommit(_ rev: String) -> Bool { rev.isEmpty || ObjectID(rev)?.isZero == true }
        for rev in since {
            if isNoCommit(rev) { excludeUnpushed(); continue }
            s.exclude.append(try commit(rev, "--since"))
        }
        for range in ranges {
            let parts = range.components(separatedBy: "..")
            if range.isEmpty {
                // Neither bound (the pre-commit framework's first push of a repository): what
                // HEAD reaches and nothing has pushed yet.
                s.include.append(try commit("HEAD", "--range"))
                excludeUnpushed()
            } else if parts.count == 1 {
                if ObjectID(range)?.isZero == true { continue }  // a deleted ref: nothing to scan
                s.include.append(try commit(range, "--range"))
            } else if parts.count == 2, !parts[1].hasPrefix(".") {
                if ObjectID(parts[1])?.isZero == true { continue }
                s.include.append(try commit(parts[1].isEmpty ? "HEAD" : parts[1], "--range"))
                if isNoCommit(parts[0]) { excludeUnpushed() } else { s.exclude.append(try commit(parts[0], "--range")) }
            } else {
                throw RevisionRequestError(message: "--range \(range): expected A..B or B")
            }
        }
        return s
    }
}
