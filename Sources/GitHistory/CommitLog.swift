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
    /// Leave out everything a remote-tracking ref reaches (`--not --remotes`): a new branch's
    /// first push from a clone, where the pushed commits are on a local branch already.
    public var excludeRemoteRefs = false

    public init() {}

    var revListArguments: [String] {
        var args: [String] = []
        if allRefsAndReflogs { args += ["--all", "--reflog"] }
        args += include
        if !exclude.isEmpty || excludeAllRefs || excludeRemoteRefs {
            args.append("--not")
            args += exclude
            if excludeAllRefs { args.append("--all") } else if excludeRemoteRefs { args.append("--remotes") }
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
///
/// Several `diff-tree` processes (`DiffTreeShard`), each given every `shards`-th chunk of
/// `chunkCommits` commits, and the chunks taken back in order, so the commits come out in
/// `rev-list` order as from one process. Even without `-M`, one `diff-tree` over git.git
/// costs 13.6 s of CPU (8.0 s for its 63,852 ordinary commits, 6.1 s for its 21,500 merges'
/// combined diffs), as much as reading every blob: as one process it is the first stage's
/// single-core bottleneck. keyshape reads `rev-list` itself to deal the chunks, and keeps the
/// commit names for the scan of commit messages (`listedCommits`), so no second `rev-list`
/// (1.7 s of CPU on git.git) is needed.
public final class CommitLog: @unchecked Sendable {
    let git: Git
    private let revList: Subprocess
    private let shards: [DiffTreeShard]
    private let dispatched = DispatchSemaphore(value: 0)
    private let listing = NSCondition()
    /// Set by the dispatcher once `rev-list` ended.
    private var chunksDealt: Int?
    private var listed: [ObjectID] = []
    private var listingDone = false
    private var current: [CommitChanges] = []
    private var currentIndex = 0
    private var chunk = 0
    private var finished = false
    public private(set) var commitsRead = 0

    static let format = "--format=%x01%H %P%x00%an%x00%ae%x00%aI"

    /// Commits per chunk: small enough that the first blobs are asked for at once, large
    /// enough that a process keeps walking neighbouring trees (its delta-base cache holds
    /// their bases) and the chunk markers cost nothing.
    public static let chunkCommits = 256

    /// The first chunk is smaller: `diff-tree` answers for a chunk only once it walked all of
    /// it, and until then git's blob reader has nothing to read (256 commits of psf/requests
    /// are 11 ms of `diff-tree`; 32 are under 2 ms).
    public static let firstChunkCommits = 32

    /// One `diff-tree` per core, at most two: each process rebuilds the tree objects it
    /// walks from their delta bases in its own cache, so more processes than cores only add
    /// that work twice.
    public static var defaultShards: Int { max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)) }

    private let chunkSize: Int

    /// Changed paths one commit may list (`--max-commit-paths`): past it the listing fails
    /// (`GitError.tooManyPaths`), an error entry. A tree that holds one subtree ten times at
    /// every level (a "git bomb": 256 KB, ten levels) lists 10^depth paths for one commit;
    /// listing and attributing them cost 21 s and 347 MB per million paths before this limit
    /// (depth 6 on a loaded two-core machine), so depth 7 took a minute and 3.4 GB. A quarter
    /// of a million is more than a whole checkout of most repositories (linux: 90,000 files)
    /// and keeps one such commit near 80 MB.
    public static let defaultMaxChangesPerCommit = 250_000

    /// The heap a `diff-tree` may use (`Subprocess.limitData`): git queues every changed path
    /// of a commit before it prints the first (measured: 294 MB for the million paths of a
    /// depth-6 bomb, so a depth-7 one took a minute and 2.9 GB before keyshape saw a byte),
    /// so the path limit is enforced on git's side too: 128 MiB (git's delta-base cache of
    /// 96 MiB and the rest) plus 400 bytes per allowed path. A commit past it ends git with
    /// "out of memory", an error entry.
    static func diffTreeDataLimit(_ maxChangesPerCommit: Int) -> Int {
        let (perPath, overflow) = maxChangesPerCommit.multipliedReportingOverflow(by: 400)
        return overflow ? Int.max : (128 << 20) + min(perPath, Int.max - (128 << 20))
    }

    /// The most output a whole listing read at once may have (a merge's deletions, a notes
    /// tree): about `defaultMaxChangesPerCommit` records of a typical 100 bytes and more.
    public static let maxListingBytes = 32 << 20

    public init(git: Git, selection: CommitSelection, shards: Int = CommitLog.defaultShards,
                chunkCommits: Int = CommitLog.chunkCommits, maxChangesPerCommit: Int = CommitLog.defaultMaxChangesPerCommit) throws {
        self.git = git
        chunkSize = max(1, chunkCommits)
        revList = try git.spawn(["rev-list", "--parents"] + selection.revListArguments + ["--"])
        var started: [DiffTreeShard] = []
        do {
            for _ in 0..<max(1, shards) {
                started.append(try DiffTreeShard(git: git, arguments: ["diff-tree", "--stdin", "-r", "-c", "--raw", "-z", "--root", "--no-abbrev",
                                                                      "--no-ext-diff", "--no-textconv", CommitLog.format],
                                               maxChangesPerCommit: maxChangesPerCommit))
            }
        } catch {
            for s in started { s.closeFeed(); s.cancel(); _ = s.wait() }
            revList.terminate()
            revList.wait()
            throw error
        }
        self.shards = started
        let reader = revList.outputReader()
        Thread.detachNewThread { [self] in deal(reader) }
    }

    /// Reads `rev-list`, deals its lines in chunks, and keeps the commit names.
    private func deal(_ reader: FDReader) {
        var lines: [UInt8] = []
        var inChunk = 0
        var dealt = 0
        var names: [ObjectID] = []
        func ship() {
            shards[dealt % shards.count].send(lines)
            dealt += 1
            lines.removeAll(keepingCapacity: true)
            inChunk = 0
        }
        while let line = reader.token(0x0A) {
            guard let first = line.split(separator: 0x20, maxSplits: 1).first, let id = ObjectID(hexBytes: first) else { continue }
            names.append(id)
            lines += line
            lines.append(0x0A)
            inChunk += 1
            if inChunk == (dealt == 0 ? min(chunkSize, CommitLog.firstChunkCommits) : chunkSize) { ship() }
        }
        if inChunk > 0 { ship() }
        for s in shards { s.closeFeed() }
        listing.lock()
        chunksDealt = dealt
        listed = names
        listingDone = true
        listing.broadcast()
        listing.unlock()
        dispatched.signal()
    }

    /// The names of the commits `rev-list` listed, in its order (waits for the listing;
    /// fewer than selected if `rev-list` failed, which `next` reports).
    public func listedCommits() -> [ObjectID] {
        listing.lock()
        defer { listing.unlock() }
        while !listingDone { listing.wait() }
        return listed
    }

    /// The next commit with its changes; nil at the end. Throws if git failed (after the
    /// commits it did list were returned).
    public func next() throws -> CommitChanges? {
        if finished { return nil }
        while currentIndex == current.count {
            switch shards[chunk % shards.count].take() {
            case .commits(let commits, let complete):
                current = commits
                currentIndex = 0
                // A chunk cut short is not counted: the same process's end follows, and
                // `finish` finds fewer chunks than were dealt.
                if complete { chunk += 1 }
            case .end:
                return try finish()
            case .failed(let error):
                cancel()
                throw error
            }
        }
        let c = current[currentIndex]
        currentIndex += 1
        commitsRead += 1
        return c
    }

    private func finish() throws -> CommitChanges? {
        finished = true
        dispatched.wait()
        let revStatus = revList.wait()
        let statuses = shards.map { $0.wait() }
        if revStatus != 0 {
            throw GitError.commandFailed(command: "git rev-list", status: revStatus, reason: revList.stderrReason)
        }
        for (s, status) in zip(shards, statuses) where status != 0 {
            throw GitError.commandFailed(command: "git diff-tree", status: status, reason: s.process.stderrReason)
        }
        listing.lock()
        let dealt = chunksDealt ?? 0
        listing.unlock()
        if chunk != dealt {
            throw GitError.unexpectedOutput(command: "git diff-tree", detail: "listed \(chunk) of \(dealt) chunks of commits")
        }
        return nil
    }

    /// Stops early (the processes are ended).
    public func cancel() {
        if finished { return }
        finished = true
        revList.terminate()
        for s in shards { s.cancel() }
        dispatched.wait()
        revList.wait()
        for s in shards { _ = s.wait() }
    }

    deinit { cancel() }

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

}

extension CommitLog {
    /// The paths `commit` deletes relative to `parent` (`git diff-tree -r --diff-filter=D`),
    /// each with the blob it held in `parent`. A merge's combined diff lists only paths that
    /// differ from every parent, so a path deleted relative to one parent alone is not in
    /// the stream; attribution asks for these, rarely (see `HistoryRun.attribute`).
    public static func deletions(_ git: Git, from parent: ObjectID, to commit: ObjectID) throws -> [TreeChange] {
        let out = try git.output(["diff-tree", "-r", "--raw", "-z", "--no-abbrev", "--diff-filter=D",
                                  "--no-ext-diff", "--no-textconv", parent.hex, commit.hex, "--"], maxBytes: CommitLog.maxListingBytes,
                                 dataLimit: diffTreeDataLimit(defaultMaxChangesPerCommit))
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
