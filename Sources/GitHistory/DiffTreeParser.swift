/// Parses what `git diff-tree --stdin -r -c --raw -z --root` with `CommitLog.format`
/// prints: per commit a header (`\x01` id parents, NUL-separated author, email, date), then
/// its raw records; a `\x02` line (echoed by git from its input) ends each chunk of
/// commits (`DiffTreeShard`).
struct DiffTreeParser {
    let reader: FDReader
    /// Changed paths one commit may list before the listing fails (`GitError.tooManyPaths`).
    var maxChangesPerCommit = CommitLog.defaultMaxChangesPerCommit
    /// Changed paths after which the commits read so far go to the consumer as a piece of
    /// their chunk, so what waits in memory does not grow with the chunk.
    var pieceChanges = 50_000

    /// Where `chunk` stopped.
    enum End {
        /// The chunk's marker: the chunk is complete.
        case marker
        /// `pieceChanges` reached between two commits: more of the chunk follows.
        case piece
        /// git's output ended (the commits before that end are returned).
        case eof
    }

    /// The commits up to the next chunk marker, or a piece of them.
    mutating func chunk() throws -> (commits: [CommitChanges], end: End) {
        var commits: [CommitChanges] = []
        var changes = 0
        while true {
            guard let b = reader.peek() else { return (commits, .eof) }
            switch b {
            case 0x0A, 0x00:
                reader.skipByte()
            case 0x02:
                reader.skipByte()
                if reader.peek() == 0x0A { reader.skipByte() }
                return (commits, .marker)
            case 0x01:
                guard let header = readHeader() else {
                    throw GitError.unexpectedOutput(command: "git diff-tree", detail: "malformed commit header")
                }
                let read = try readChanges(commit: header.id)
                commits.append(CommitChanges(commit: header, changes: read))
                changes += read.count
                if changes >= pieceChanges, reader.peek() != 0x02 { return (commits, .piece) }
            default:
                throw GitError.unexpectedOutput(command: "git diff-tree", detail: "unexpected byte \(b)")
            }
        }
    }

    /// Records up to the next header, chunk marker or the end; at most `maxChangesPerCommit`
    /// (a tree repeated at every level lists millions of paths from a few kilobytes).
    private func readChanges(commit: ObjectID) throws -> [TreeChange] {
        var changes: [TreeChange] = []
        while let b = reader.peek() {
            if b == 0x0A || b == 0x00 { reader.skipByte(); continue }
            if b == 0x01 || b == 0x02 { break }
            guard b == 0x3A else { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "unexpected byte \(b)") }
            guard changes.count < maxChangesPerCommit else { throw GitError.tooManyPaths(commit: commit.hex, limit: maxChangesPerCommit) }
            changes.append(try readChange())
        }
        return changes
    }

    private func readHeader() -> CommitInfo? {
        guard reader.peek() == 0x01 else { return nil }
        reader.skipByte()
        // Each field read in place (no array of its bytes, no array of the id line's parts):
        // five allocations fewer per commit.
        guard let ids = reader.withToken(0, DiffTreeParser.commitAndParents) ?? nil,
              let author = reader.withToken(0, DiffTreeParser.text), let email = reader.withToken(0, DiffTreeParser.text),
              let date = reader.withToken(0, DiffTreeParser.text) else { return nil }
        return CommitInfo(id: ids.0, parents: ids.1, author: author, email: email, date: date)
    }

    private static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `id parent parent…`: the commit's id (nil when it is not one) and each parent that is
    /// an id (space-separated, empty runs skipped, as `split` did).
    static func commitAndParents(_ line: UnsafeRawBufferPointer) -> (ObjectID, [ObjectID])? {
        var id: ObjectID?
        var parents: [ObjectID] = []
        var i = 0
        var first = true
        while i < line.count {
            while i < line.count && line[i] == 0x20 { i += 1 }
            let start = i
            while i < line.count && line[i] != 0x20 { i += 1 }
            guard i > start else { continue }
            let parsed = ObjectID.parse(UnsafeRawBufferPointer(rebasing: line[start..<i]))
            if first {
                guard let parsed else { return nil }
                id = parsed
                first = false
            } else if let parsed {
                parents.append(parsed)
            }
        }
        guard let id else { return nil }
        return (id, parents)
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
