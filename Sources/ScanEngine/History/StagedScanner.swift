import FileInputs
import Foundation
import GitHistory
import ScanCore
import ScanRules

/// Scans what is staged for the next commit: the index against HEAD (or the empty tree
/// before the first commit). Reports only secrets on added lines, with line numbers in the
/// staged version; for a file git shows no text hunks for (binary), the secrets absent from
/// HEAD's version. Never prints.
public final class StagedScanner {
    public let ruleSet: RuleSet
    public let options: ScanOptions

    public init(ruleSet: RuleSet, options: ScanOptions) {
        self.ruleSet = ruleSet
        self.options = options
    }

    /// The repository and its staged diff, read before the rules are needed: a pre-commit
    /// hook reads git while it compiles its rules.
    public struct Input: @unchecked Sendable {
        public let git: Git
        public let diff: Result<StagedDiff, Error>
        let started: Date
    }

    /// Opens the repository (throws when git is missing or it is not a repository) and
    /// reads the index against HEAD.
    public static func read(repository: String, gitOptions: Git.Options = Git.Options()) throws -> Input {
        let started = Date()
        var gitOptions = gitOptions
        gitOptions.useCallerIndexFile = true
        let git = try Git(repository: repository, options: gitOptions)
        return Input(git: git, diff: Result { try git.stagedDiff() }, started: started)
    }

    public func scan(repository: String, gitOptions: Git.Options = Git.Options()) throws -> (result: ScanResult, notes: [String]) {
        scan(try StagedScanner.read(repository: repository, gitOptions: gitOptions))
    }

    public func scan(_ input: Input) -> (result: ScanResult, notes: [String]) {
        let started = input.started
        let git = input.git
        var result = ScanResult(rules: ruleSet.ruleInfos)
        var notes: [String] = []
        let diff: StagedDiff
        switch input.diff {
        case .success(let d): diff = d
        case .failure(let error):
            result.issues.append(ScanIssue(path: "", message: "\(error)"))
            result.stats.seconds = Date().timeIntervalSince(started)
            return (result, notes)
        }
        let scanner = BufferScanner(ruleSet: ruleSet, options: options)
        let reader = CatFileReader(git: git, streaming: false)
        defer { reader.close() }

        var wanted: [ObjectID] = []
        var changes: [StagedChange] = []
        for ch in diff.changes where !ch.isDeletion {
            let path = String(decoding: ch.path, as: UTF8.self)
            if ch.isGitlink { notes.append("\(path): submodule (gitlink) entry; not scanned"); continue }
            if ch.newMode == TreeChange.symlinkMode { continue }
            if ch.oldBlob == ch.newBlob { continue }  // a pure rename or mode change adds nothing
            changes.append(ch)
            wanted.append(ch.newBlob)
            if ch.addedLines == nil, !ch.oldBlob.isZero, ch.oldMode != TreeChange.gitlinkMode { wanted.append(ch.oldBlob) }
        }
        // One batch through one cat-file: staged changes are small and must feel instant.
        var blobs: [ObjectID: [UInt8]] = [:]
        var unreadable: [ObjectID: String] = [:]
        reader.read(wanted, maxSize: options.maxFileSize) { i, r in
            switch r {
            case .object(_, let bytes): blobs[wanted[i]] = Array(bytes)
            case .tooLarge(_, let size): unreadable[wanted[i]] = "staged file is \(size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise --max-file-size)"
            case .missing: unreadable[wanted[i]] = "staged object \(wanted[i].hex) missing or corrupt"
            case .failed(let m): unreadable[wanted[i]] = m
            }
        }
        for ch in changes {
            let path = String(decoding: ch.path, as: UTF8.self)
            guard let bytes = blobs[ch.newBlob] else {
                result.issues.append(ScanIssue(path: path, message: unreadable[ch.newBlob] ?? "staged object unreadable"))
                continue
            }
            result.stats.files += 1
            result.stats.bytes += bytes.count
            var found: [BufferFinding] = []
            var binary = false
            bytes.withUnsafeBytes { raw in
                binary = ChunkReader.looksBinary(raw)
                scanner.scan(raw, isBinary: binary, context: MatchContext(path: path), onFinding: { found.append($0) }, onFailure: { ruleIndex, message in
                    result.issues.append(ScanIssue(path: path, message: "rule `\(scanner.rules[ruleIndex].id)` gave up (\(message)); that rule's results for this file are incomplete"))
                })
            }
            if binary { result.stats.binaries += 1 }
            var keep: (BufferFinding) -> Bool
            if let added = ch.addedLines, !binary {
                keep = { f in
                    guard let first = f.line else { return false }
                    let last = f.endLine ?? first
                    return added.contains { $0.overlaps(first...max(first, last)) }
                }
            } else if ch.oldBlob.isZero || ch.oldMode == TreeChange.gitlinkMode {
                keep = { _ in true }
            } else {
                var before = Set<SecretKey>()
                if let old = blobs[ch.oldBlob] {
                    let oldPath = String(decoding: ch.oldPath ?? ch.path, as: UTF8.self)
                    _ = old.withUnsafeBytes { raw in
                        scanner.scan(raw, isBinary: ChunkReader.looksBinary(raw), context: MatchContext(path: oldPath),
                                     onFinding: { before.insert(CachedFinding($0).key) }, onFailure: { _, _ in })
                    }
                }
                keep = { !before.contains(CachedFinding($0).key) }
            }
            for f in found where keep(f) {
                let rule = ruleSet.rules[f.ruleIndex]
                var location = CachedFinding(f).location(kind: .staged, path: path)
                if binary { location.format = "raw"; location.fileOffset = f.range.lowerBound }
                let fingerprint = SecretHasher.fingerprint(rule: rule.id, path: path, section: nil, secretHash: f.secretHash)
                if options.baseline.contains(fingerprint) { continue }
                result.findings.append(Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint,
                                               secretHash: f.secretHash, location: location))
            }
        }
        result.findings.sort()
        result.issues.sort()
        result.stats.seconds = Date().timeIntervalSince(started)
        return (result, notes)
    }
}
