/// Parses what `git diff-tree --stdin -r -c --raw -z --root` with `CommitLog.format`
/// prints: per commit a header (`\x01` id parents, NUL-separated author, email, date), then
/// its raw records; a `\x02` line (echoed by git from its input) ends each chunk of
/// commits (`DiffTreeShard`).
struct DiffTreeParser {
    let reader: FDReader

    /// The commits up to the next chunk marker; `complete` is false when git's output ended
    /// first (then the commits before that end).
    mutating func chunk() throws -> (commits: [CommitChanges], complete: Bool) {
        var commits: [CommitChanges] = []
        while true {
            guard let b = reader.peek() else { return (commits, false) }
            switch b {
            case 0x0A, 0x00:
                reader.skipByte()
            case 0x02:
                reader.skipByte()
                if reader.peek() == 0x0A { reader.skipByte() }
                return (commits, true)
            case 0x01:
                guard let header = readHeader() else {
                    throw GitError.unexpectedOutput(command: "git diff-tree", detail: "malformed commit header")
                }
                commits.append(CommitChanges(commit: header, changes: try readChanges(parents: header.parents.count)))
            default:
                throw GitError.unexpectedOutput(command: "git diff-tree", detail: "unexpected byte \(b)")
            }
        }
    }

    /// Records up to the next header, chunk marker or the end.
    private func readChanges(parents: Int) throws -> [TreeChange] {
        var changes: [TreeChange] = []
        while let b = reader.peek() {
            if b == 0x0A || b == 0x00 { reader.skipByte(); continue }
            if b == 0x01 || b == 0x02 { break }
            guard b == 0x3A else { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "unexpected byte \(b)") }
            changes.append(try readChange())
        }
        return changes
    }

    private func readHeader() -> CommitInfo? {
        guard reader.peek() == 0x01 else { return nil }
        reader.skipByte()
        guard let ids = reader.token(0), let author = reader.token(0), let email = reader.token(0), let date = reader.token(0) else { return nil }
        let parts = ids.split(separator: 0x20)
        guard let first = parts.first, let id = ObjectID(hexBytes: first) else { return nil }
        let parents = parts.dropFirst().compactMap { ObjectID(hexBytes: $0) }
        return CommitInfo(id: id, parents: parents,
                          author: String(decoding: author, as: UTF8.self),
                          email: String(decoding: email, as: UTF8.self),
                          date: String(decoding: date, as: UTF8.self))
    }

    /// `:old new oldid newid S\0path\0` (one parent; renames add a path) or
    /// `::m1 m2 m id1 id2 id SS\0path\0` (combined).
    private func readChange() throws -> TreeChange {
        guard let parsed = reader.withToken(0, { CommitLog.rawFields($0) }) else {
            throw GitError.unexpectedOutput(command: "git diff-tree", detail: "truncated record")
        }
        let fields = try parsed.get()
        let n = fields.ids.count - 1
        let modes = fields.modes, ids = fields.ids, status = fields.status
        guard let path = reader.token(0) else { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "missing path") }
        var change = TreeChange(path: path, newMode: modes[n], newBlob: ids[n], oldModes: Array(modes[0..<n]),
                                oldBlobs: Array(ids[0..<n]), status: status)
        if n == 1, let s = status.first, s == 0x52 || s == 0x43 {  // R, C: old path then new path
            guard let newPath = reader.token(0) else { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "missing rename target") }
            change.oldPath = path
            change.path = newPath
        }
        return change
    }
}
