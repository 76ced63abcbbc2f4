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
    public var changes: [StagedChange]
}

/// The staged diff being read from one `git diff --cached --patch-with-raw` process: the
/// paths and blobs (its raw part, which git writes first) are known before the patch with the
/// added line numbers has been read, so a caller can read and scan the blobs in the meantime.
///
/// One process rather than three (`rev-parse HEAD`, `diff-index --raw` and `diff -U0`, as
/// before): each git start costs about 2 ms of CPU (fork, exec, reading the index and config),
/// a large share of a pre-commit hook's run on a 2-core machine that is busy. It also reads
/// the index and HEAD once, so the paths and the added lines cannot come from two different
/// states, and git itself compares with the empty tree before the first commit (or when HEAD
/// names nothing).
public final class StagedDiffReading: @unchecked Sendable {
    let git: Git
    private let process: Subprocess
    private let reader: FDReader
    private var listed: Result<[StagedChange], Error>?

    init(git: Git) throws {
        self.git = git
        process = try git.spawn(["diff", "--cached", "--patch-with-raw", "-z", "--no-abbrev", "-U0", "-M",
                                 "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
                                 "--src-prefix=a/", "--dst-prefix=b/", "--diff-algorithm=myers", "--ignore-submodules=none",
                                 // A gitlink as its two commit names: `--submodule=diff` (which a repository's
                                 // `diff.submodule` can ask for) starts a `git diff` inside the submodule, and
                                 // that child reads the submodule's own config and attributes, diff drivers too.
                                 "--submodule=short",
                                 "--"])
        reader = process.outputReader()
    }

    /// What the index changes, without added lines. A git that fails before or while
    /// writing them leaves the list short; `finish` then throws, so nothing goes unreported.
    public func paths() throws -> [StagedChange] {
        if let listed { return try listed.get() }
        let result = Result { try Git.parseRawDiff(readRawPart()) }
        listed = result
        return try result.get()
    }

    /// The raw records (`:om nm oid nid S\0path\0[path\0]`), up to the empty token git writes
    /// between them and the patch (with `-z` the separator is a NUL), or to the end of output.
    private func readRawPart() -> [UInt8] {
        var raw: [UInt8] = []
        while let token = reader.token(0) {
            if token.isEmpty { break }
            raw += token
            raw.append(0)
        }
        return raw
    }

    /// The whole diff: the paths with the line ranges each adds.
    public func finish() throws -> StagedDiff {
        var changes = try paths()
        let added = Git.parseAddedLines(reader)
        let status = process.wait()
        guard status == 0 else { throw GitError.commandFailed(command: "git diff --cached", status: status, reason: process.stderrReason) }
        for i in changes.indices { changes[i].addedLines = added[changes[i].path] }
        return StagedDiff(changes: changes)
    }
}

extension Git {
    /// Starts reading the index against HEAD (or the empty tree before the first commit):
    /// `diff --cached --patch-with-raw -z -M -U0` (no external diff, no textconv, no color,
    /// fixed prefixes, submodules as commit names), the paths and blobs first, then the added
    /// line numbers.
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
