import Foundation

/// A commit's identity and author, as git stores them.
public struct CommitInfo: Sendable, Hashable {
    public var id: ObjectID
    public var parents: [ObjectID]
    public var author: String
    public var email: String
    /// Author date, strict ISO 8601 (`%aI`).
    public var date: String

    public init(id: ObjectID, parents: [ObjectID], author: String, email: String, date: String) {
        self.id = id
        self.parents = parents
        self.author = author
        self.email = email
        self.date = date
    }
}

/// One path a commit changed relative to its parents. For a merge only paths that differ
/// from every parent are listed (git's combined diff), with each parent's blob at that path
/// in `oldBlobs`. No rename detection: a rename is a deletion of the old path and an
/// addition of the new one (attribution pairs them, see `HistoryRun.attribute`).
public struct TreeChange: Sendable, Hashable {
    /// The path in the commit, raw bytes (git allows any byte but NUL and `/` is the separator).
    public var path: [UInt8]
    /// For a single-parent rename or copy, the path in the parent (only in output that asks
    /// git for rename detection; the history walk does not).
    public var oldPath: [UInt8]?
    public var newMode: UInt32
    /// Zero when the path was deleted.
    public var newBlob: ObjectID
    /// One per parent (one for a root commit, all zero): the parent's blob, zero when absent.
    public var oldModes: [UInt32]
    public var oldBlobs: [ObjectID]
    /// git's status letters, one per parent (`A`, `M`, `D`, `R`, `T`, …).
    public var status: [UInt8]

    public static let gitlinkMode: UInt32 = 0o160000
    public static let symlinkMode: UInt32 = 0o120000
    public var isGitlink: Bool { newMode == TreeChange.gitlinkMode }
    public var isDeletion: Bool { newBlob.isZero || newMode == 0 }

    public init(path: [UInt8], oldPath: [UInt8]? = nil, newMode: UInt32, newBlob: ObjectID, oldModes: [UInt32], oldBlobs: [ObjectID], status: [UInt8]) {
        self.path = path
        self.oldPath = oldPath
        self.newMode = newMode
        self.newBlob = newBlob
        self.oldModes = oldModes
        self.oldBlobs = oldBlobs
        self.status = status
    }
}

/// A commit and what it changed.
public struct CommitChanges: Sendable {
    public var commit: CommitInfo
    public var changes: [TreeChange]
}

/// Which commits to list.
public struct CommitSelection: Sendable, Equatable {
    /// Everything reachable from any ref (branches, tags, remotes, notes, `refs/stash`, …),
    /// from HEAD and from every reflog entry (which includes every stash entry).
    public var allRefsAndReflogs = true
    /// Commits to start from (besides, or instead of, the above).
    public var include: [String] = []
    /// Commits whose history is left out.
    public var exclude: [String] = []
    /// Leave out everything reachable from any ref (`--not --all`), for a server-side hook
    /// where pushed commits are not on a ref yet.
    public var excludeAllRefs = false

    public init() {}

    var revListArguments: [String] {
        var args: [String] = []
        if allRefsAndReflogs { args += ["--all", "--reflog"] }
        args += include
        if !exclude.isEmpty || excludeAllRefs {
            args.append("--not")
            args += exclude
            if excludeAllRefs { args.append("--all") }
        }
        return args
    }
}

/// Streams `git rev-list --parents … | git diff-tree --stdin -r -c --raw -z --root`:
/// per commit its parents, author, email, date and changed paths, with blob names from
/// both sides. Plumbing commands only, so the repository's diff and log settings
/// (`log.showSignature`, `diff.renames`, `log.showRoot`, …) cannot change what is listed.
///
/// No `-M`: git's similarity-based rename detection compares every deleted file with every
/// added one, and kept `diff-tree` at one full core for the whole of a git.git history
/// (85k commits: the listing took longer than reading every blob). Renames are recognised
/// by attribution instead, from the deleted paths' blobs, which are read anyway.
public final class CommitLog {
    let git: Git
    private let revList: Subprocess
    private let diffTree: Subprocess
    private let reader: FDReader
    private var pendingHeader: CommitInfo?
    private var finished = false
    public private(set) var commitsRead = 0

    static let format = "--format=%x01%H %P%x00%an%x00%ae%x00%aI"

    public init(git: Git, selection: CommitSelection) throws {
        self.git = git
        // rev-list writes into a pipe that diff-tree reads: no copy through keyshape.
        revList = try git.spawn(["rev-list", "--parents"] + selection.revListArguments + ["--"])
        let fd = revList.stdoutFD
        do {
            diffTree = try git.spawn(["diff-tree", "--stdin", "-r", "-c", "--raw", "-z", "--root", "--no-abbrev",
                                      "--no-ext-diff", "--no-textconv", CommitLog.format],
                                     stdin: .fd(fd))
        } catch {
            revList.terminate()
            revList.wait()
            throw error
        }
        revList.closeStdout()
        reader = FDReader(fd: diffTree.stdoutFD)
    }

    /// The next commit with its changes; nil at the end. Throws if git failed (after the
    /// commits it did list were returned).
    public func next() throws -> CommitChanges? {
        if finished { return nil }
        guard let current = pendingHeader ?? readHeader() else {
            return try finish()
        }
        pendingHeader = nil
        var changes: [TreeChange] = []
        while let b = reader.peek() {
            if b == 0x0A || b == 0x00 { reader.skipByte(); continue }
            if b == 0x01 {
                pendingHeader = readHeader()
                if pendingHeader == nil { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "malformed commit header") }
                break
            }
            guard b == 0x3A else { throw GitError.unexpectedOutput(command: "git diff-tree", detail: "unexpected byte \(b)") }
            changes.append(try readChange(parents: current.parents.count))
        }
        commitsRead += 1
        return CommitChanges(commit: current, changes: changes)
    }

    private func finish() throws -> CommitChanges? {
        finished = true
        let revStatus = revList.wait()
        let diffStatus = diffTree.wait()
        if revStatus != 0 {
            throw GitError.commandFailed(command: "git rev-list", status: revStatus, reason: revList.stderrReason)
        }
        if diffStatus != 0 {
            throw GitError.commandFailed(command: "git diff-tree", status: diffStatus, reason: diffTree.stderrReason)
        }
        return nil
    }

    /// Stops early (the processes are ended).
    public func cancel() {
        if finished { return }
        finished = true
        revList.terminate()
        diffTree.terminate()
        revList.wait()
        diffTree.wait()
    }

    deinit { cancel() }

    private func readHeader() -> CommitInfo? {
        while let b = reader.peek(), b == 0x0A || b == 0x00 { reader.skipByte() }
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

    /// An octal file mode (`100644`), without making a String of it.
    static func octal<C: Collection>(_ digits: C) -> UInt32? where C.Element == UInt8 {
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var v: UInt32 = 0
        for d in digits {
            guard d >= 0x30 && d <= 0x37 else { return nil }
            v = v << 3 | UInt32(d - 0x30)
        }
        return v
    }

    /// The fields of a raw record before its path: a mode and an object name per parent and
    /// for the commit, and the status letters.
    struct RawFields {
        var modes: [UInt32] = []
        var ids: [ObjectID] = []
        var status: [UInt8] = []
    }

    /// Parses `:old new oldid newid S` or `::m1 m2 m id1 id2 id SS` in place (no copy of the
    /// record, no array of fields: tens of thousands of records per history).
    static func rawFields(_ meta: UnsafeRawBufferPointer) -> Result<RawFields, GitError> {
        func bad(_ detail: String) -> Result<RawFields, GitError> {
            .failure(GitError.unexpectedOutput(command: "git diff-tree", detail: detail))
        }
        var i = 0
        while i < meta.count && meta[i] == 0x3A { i += 1 }
        let n = i  // number of parents this record compares with
        var fields: [Range<Int>] = []
        fields.reserveCapacity(2 * (n + 1) + 1)
        while i < meta.count {
            var j = i
            while j < meta.count && meta[j] != 0x20 { j += 1 }
            if j > i { fields.append(i..<j) }
            i = j + 1
        }
        guard fields.count == 2 * (n + 1) + 1 else { return bad("raw record with \(fields.count) fields") }
        var out = RawFields()
        out.modes.reserveCapacity(n + 1)
        out.ids.reserveCapacity(n + 1)
        for f in fields[0...n] {
            guard let m = octal(UnsafeRawBufferPointer(rebasing: meta[f])) else { return bad("mode") }
            out.modes.append(m)
        }
        for f in fields[(n + 1)...(2 * n + 1)] {
            guard let id = ObjectID.parse(UnsafeRawBufferPointer(rebasing: meta[f])) else { return bad("object name") }
            out.ids.append(id)
        }
        // Single-parent records carry a score after the letter (R100); combined ones one letter per parent.
        let status = fields[2 * n + 2]
        out.status = Array(UnsafeRawBufferPointer(rebasing: meta[n == 1 ? status.prefix(1) : status]))
        return .success(out)
    }

    /// `:old new oldid newid S\0path\0` (one parent; renames add a path) or
    /// `::m1 m2 m id1 id2 id SS\0path\0` (combined).
    private func readChange(parents: Int) throws -> TreeChange {
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

extension CommitLog {
    /// The paths `commit` deletes relative to `parent` (`git diff-tree -r --diff-filter=D`),
    /// each with the blob it held in `parent`. A merge's combined diff lists only paths that
    /// differ from every parent, so a path deleted relative to one parent alone is not in
    /// the stream; attribution asks for these, rarely (see `HistoryRun.attribute`).
    public static func deletions(_ git: Git, from parent: ObjectID, to commit: ObjectID) throws -> [TreeChange] {
        let out = try git.output(["diff-tree", "-r", "--raw", "-z", "--no-abbrev", "--diff-filter=D",
                                  "--no-ext-diff", "--no-textconv", parent.hex, commit.hex, "--"])
        return try parseRecords(out, command: "git diff-tree")
    }

    /// `:old new oldid newid S\0path\0` records, one parent, no renames.
    static func parseRecords(_ bytes: [UInt8], command: String) throws -> [TreeChange] {
        var changes: [TreeChange] = []
        var i = 0
        func field() -> Range<Int>? {
            guard i < bytes.count, let end = bytes[i...].firstIndex(of: 0) else { return nil }
            defer { i = end + 1 }
            return i..<end
        }
        while i < bytes.count {
            guard let meta = field(), let path = field() else {
                throw GitError.unexpectedOutput(command: command, detail: "truncated record")
            }
            let fields = try bytes[meta].withUnsafeBytes { try CommitLog.rawFields($0).get() }
            guard fields.ids.count == 2 else { throw GitError.unexpectedOutput(command: command, detail: "raw record with \(fields.ids.count) objects") }
            changes.append(TreeChange(path: Array(bytes[path]), newMode: fields.modes[1], newBlob: fields.ids[1],
                                      oldModes: [fields.modes[0]], oldBlobs: [fields.ids[0]], status: fields.status))
        }
        return changes
    }
}
