import Foundation

/// One path the index changes relative to HEAD (or the empty tree before the first commit).
public struct StagedChange: Sendable, Hashable {
    public var path: [UInt8]
    /// For a rename, the path in HEAD.
    public var oldPath: [UInt8]?
    public var status: UInt8
    public var oldMode: UInt32
    public var newMode: UInt32
    /// Zero when the path is new.
    public var oldBlob: ObjectID
    /// Zero when the path is deleted.
    public var newBlob: ObjectID
    /// 1-based line ranges the staged version adds (from `git diff --cached -U0`); nil when
    /// git shows no text hunks for the path (binary, or attributes say `-diff`).
    public var addedLines: [ClosedRange<Int>]?

    public var isGitlink: Bool { newMode == TreeChange.gitlinkMode }
    public var isDeletion: Bool { newBlob.isZero || newMode == 0 }
}

/// What the next commit would change.
public struct StagedDiff: Sendable {
    /// HEAD, or nil before the first commit.
    public var head: ObjectID?
    public var changes: [StagedChange]
}

/// The staged diff being read: the paths and blobs (`diff-index --cached --raw`) are
/// known before git has finished the patch with the added line numbers (`diff --cached
/// -U0`), so a caller can read and scan the blobs in the meantime.
public final class StagedDiffReading: @unchecked Sendable {
    let git: Git
    private var base: String
    private var headProbe: Subprocess?
    private var raw: Subprocess
    private var patch: Subprocess
    private var listed: Result<(head: ObjectID?, changes: [StagedChange]), Error>?

    init(git: Git) throws {
        self.git = git
        headProbe = try git.startResolving("HEAD")
        base = "HEAD"
        (raw, patch) = try StagedDiffReading.spawn(git, base: base)
    }

    private static func spawn(_ git: Git, base: String) throws -> (Subprocess, Subprocess) {
        let raw = try git.spawn(["diff-index", "--cached", "--raw", "-z", "-M", "--no-abbrev", base, "--"])
        let patch = try git.spawn(["diff", "--cached", "-U0", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
                                   "--src-prefix=a/", "--dst-prefix=b/", "--diff-algorithm=myers", "--ignore-submodules=none",
                                   // A gitlink as its two commit names: `--submodule=diff` (which a repository's
                                   // `diff.submodule` can ask for) starts a `git diff` inside the submodule, and
                                   // that child reads the submodule's own config and attributes, diff drivers too.
                                   "--submodule=short",
                                   base, "--"])
        return (raw, patch)
    }

    /// HEAD (nil before the first commit) and what the index changes, without added lines.
    public func paths() throws -> (head: ObjectID?, changes: [StagedChange]) {
        if let listed { return try listed.get() }
        let result = Result { try readPaths() }
        listed = result
        return try result.get()
    }

    private func readPaths() throws -> (head: ObjectID?, changes: [StagedChange]) {
        var head: ObjectID?
        if let probe = headProbe {
            head = Git.resolved(probe)
            headProbe = nil
        }
        var rawOut = FDReader(fd: raw.stdoutFD).readAll()
        var status = raw.wait()
        let unborn = base == "HEAD" && status != 0 && GitError.says(raw.stderrBytes, "bad revision")
        if head == nil || unborn {
            // Before the first commit (or HEAD moved between the two reads): against what HEAD is now.
            patch.terminate()
            patch.wait()
            base = head?.hex ?? git.emptyTree.hex
            (raw, patch) = try StagedDiffReading.spawn(git, base: base)
            rawOut = FDReader(fd: raw.stdoutFD).readAll()
            status = raw.wait()
        }
        guard status == 0 else { throw GitError.commandFailed(command: "git diff-index --cached", status: status, reason: raw.stderrReason) }
        return (head, try Git.parseRawDiff(rawOut))
    }

    /// The whole diff: the paths with the line ranges each adds.
    public func finish() throws -> StagedDiff {
        var (head, changes) = try paths()
        let added = Git.parseAddedLines(FDReader(fd: patch.stdoutFD))
        let status = patch.wait()
        guard status == 0 else { throw GitError.commandFailed(command: "git diff --cached", status: status, reason: patch.stderrReason) }
        for i in changes.indices { changes[i].addedLines = added[changes[i].path] }
        return StagedDiff(head: head, changes: changes)
    }
}

extension Git {
    /// Starts reading the index against HEAD (or the empty tree before the first commit):
    /// `diff-index --cached --raw -z -M` for the paths and blobs, and `diff --cached -U0`
    /// (no external diff, no textconv, no color, fixed prefixes, submodules as commit names) for the added line
    /// numbers, side by side with the lookup of HEAD itself.
    public func startStagedDiff() throws -> StagedDiffReading { try StagedDiffReading(git: self) }

    /// The whole staged diff (see `startStagedDiff`).
    public func stagedDiff() throws -> StagedDiff { try startStagedDiff().finish() }

    /// `:om nm oid nid S\0path\0[path\0]` records.
    static func parseRawDiff(_ bytes: [UInt8]) throws -> [StagedChange] {
        var tokens = bytes.split(separator: 0, omittingEmptySubsequences: false)[...]
        var out: [StagedChange] = []
        while let meta = tokens.popFirst() {
            if meta.isEmpty { continue }
            guard meta.first == 0x3A else { throw GitError.unexpectedOutput(command: "git diff-index", detail: "record") }
            let f = meta.dropFirst().split(separator: 0x20)
            guard f.count == 5, let om = UInt32(String(decoding: f[0], as: UTF8.self), radix: 8),
                  let nm = UInt32(String(decoding: f[1], as: UTF8.self), radix: 8),
                  let oid = ObjectID(hexBytes: f[2]), let nid = ObjectID(hexBytes: f[3]), let s = f[4].first,
                  let path = tokens.popFirst() else {
                throw GitError.unexpectedOutput(command: "git diff-index", detail: "record fields")
            }
            var change = StagedChange(path: Array(path), status: s, oldMode: om, newMode: nm, oldBlob: oid, newBlob: nid)
            if s == 0x52 || s == 0x43 {
                guard let newPath = tokens.popFirst() else { throw GitError.unexpectedOutput(command: "git diff-index", detail: "rename") }
                change.oldPath = Array(path)
                change.path = Array(newPath)
            }
            out.append(change)
        }
        return out
    }

    /// Reads a `-U0` patch: for each file with text hunks, its path in the new version and
    /// the added line ranges. Hunk bodies are skipped by count, so content that looks like
    /// a header cannot confuse it.
    static func parseAddedLines(_ reader: FDReader) -> [[UInt8]: [ClosedRange<Int>]] {
        var result: [[UInt8]: [ClosedRange<Int>]] = [:]
        var currentPath: [UInt8]?
        while let line = reader.token(0x0A) {
            if line.starts(with: Array("diff --git ".utf8)) { currentPath = nil; continue }
            if line.starts(with: Array("+++ ".utf8)) {
                var name = Array(line.dropFirst(4))
                if name.last == 0x09 { name.removeLast() }  // git adds a tab after names with spaces
                if name.first == 0x22 { name = unquoteC(name) }
                if name.starts(with: Array("b/".utf8)) { currentPath = Array(name.dropFirst(2)); result[currentPath!] = result[currentPath!] ?? [] } else { currentPath = nil }
                continue
            }
            if line.starts(with: Array("@@ ".utf8)) {
                // @@ -a[,b] +c[,d] @@
                let parts = line.split(separator: 0x20)
                guard parts.count >= 3 else { continue }
                let old = range(parts[1].dropFirst()), new = range(parts[2].dropFirst())
                var removed = old.count, addedCount = new.count
                if let path = currentPath, new.count > 0 { result[path, default: []].append(new.start...(new.start + new.count - 1)) }
                while removed > 0 || addedCount > 0 {
                    guard let body = reader.token(0x0A) else { break }
                    if body.first == 0x2D { removed -= 1 } else if body.first == 0x2B { addedCount -= 1 }
                    // `\ No newline at end of file` lines count for nothing.
                }
            }
        }
        return result
    }

    private static func range(_ text: ArraySlice<UInt8>) -> (start: Int, count: Int) {
        let parts = text.split(separator: 0x2C, omittingEmptySubsequences: false)
        let start = Int(String(decoding: parts[0], as: UTF8.self)) ?? 0
        let count = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 1
        return (start, count)
    }

    /// Undoes git's C-style quoting of a path (`"a\tb\303\251"`).
    static func unquoteC(_ quoted: [UInt8]) -> [UInt8] {
        guard quoted.count >= 2, quoted.first == 0x22, quoted.last == 0x22 else { return quoted }
        var out: [UInt8] = []
        var i = 1
        let end = quoted.count - 1
        while i < end {
            let c = quoted[i]
            if c != 0x5C { out.append(c); i += 1; continue }
            i += 1
            guard i < end else { break }
            let e = quoted[i]
            switch e {
            case 0x61: out.append(7)
            case 0x62: out.append(8)
            case 0x74: out.append(9)
            case 0x6E: out.append(10)
            case 0x76: out.append(11)
            case 0x66: out.append(12)
            case 0x72: out.append(13)
            case 0x30...0x37:
                var v = 0
                var k = 0
                while k < 3 && i < end && (0x30...0x37).contains(quoted[i]) { v = v * 8 + Int(quoted[i] - 0x30); i += 1; k += 1 }
                out.append(UInt8(truncatingIfNeeded: v))
                continue
            default: out.append(e)
            }
            i += 1
        }
        return out
    }
}
