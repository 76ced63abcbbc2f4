import FileInputs
import Foundation
import GitHistory
import ScanCore
import MatchEngine

/// Scans what is staged for the next commit: the index against HEAD (or the empty tree
/// before the first commit). Reports only secrets on added lines, with line numbers in the
/// staged version; for a file git shows no text hunks for (binary), the secrets absent from
/// HEAD's version. Never prints.
public final class StagedScanner {
    public let ruleSet: RuleSet
    public let options: ScanOptions
    /// The largest buffer the last scan held a staged blob's bytes in (tests of the memory bound).
    private(set) var largestBlobBuffer = 0

    public init(ruleSet: RuleSet, options: ScanOptions) {
        self.ruleSet = ruleSet
        self.options = options
    }

    /// The repository with git already reading its staged diff, made before the rules are
    /// needed: a pre-commit hook reads git while it compiles its rules.
    public struct Input: @unchecked Sendable {
        public let git: Git
        let diff: Result<StagedDiffReading, Error>
        /// Started with the diff, so its start-up is not paid after it.
        let reader: CatFileReader
        let started: Date
    }

    /// Opens the repository (throws when git is missing or it is not a repository) and
    /// starts reading the index against HEAD.
    public static func read(repository: String, gitOptions: Git.Options = Git.Options()) throws -> Input {
        let started = Date()
        var gitOptions = gitOptions
        gitOptions.useCallerIndexFile = true
        let git = try Git(repository: repository, options: gitOptions)
        let reader = CatFileReader(git: git, streaming: false)
        reader.open()
        let diff = Result { try git.startStagedDiff() }
        if case .success(let d) = diff { _ = try? d.paths() }  // the paths, before the rules are ready
        return Input(git: git, diff: diff, reader: reader, started: started)
    }

    public func scan(repository: String, gitOptions: Git.Options = Git.Options()) throws -> (result: ScanResult, notes: [String]) {
        scan(try StagedScanner.read(repository: repository, gitOptions: gitOptions))
    }

    /// A staged file's new version, scanned while git still computes the added lines.
    private struct Scanned {
        var change: StagedChange
        var path: String
        /// Empty for a file over the chunk size, scanned in chunks as it was read.
        var bytes: [UInt8]
        var binary: Bool
        /// Not yet hashed (`secretHash` empty): only the findings kept are. Those of a file
        /// scanned in chunks are hashed already (its bytes are gone).
        var found: [BufferFinding]
    }

    /// A blob over the chunk size, as `read` scanned it in chunks (never held whole).
    private struct Streamed {
        var size: Int
        var binary: Bool
        var found: [BufferFinding]
        /// Error entries at member chains (a staged archive's problems; empty chain: the
        /// file itself, such as a transform's problem).
        var issues: [(members: [[UInt8]], message: String)] = []
    }

    public func scan(_ input: Input) -> (result: ScanResult, notes: [String]) {
        let started = input.started
        let reader = input.reader
        defer { reader.close() }
        var result = ScanResult(rules: ruleSet.ruleInfos)
        var notes: [String] = []
        func fail(_ error: Error) -> (result: ScanResult, notes: [String]) {
            result.issues.append(ScanIssue(path: "", message: "\(error)"))
            result.stats.seconds = Date().timeIntervalSince(started)
            return (result, notes)
        }
        let reading: StagedDiffReading
        let listed: [StagedChange]
        do {
            reading = try input.diff.get()
            listed = try reading.paths()
        } catch { return fail(error) }
        let front = InputFront(pipeline: BufferPipeline(ruleSet: ruleSet, options: options))
        let pipeline = front.pipeline
        var builder = FindingBuilder(options: options)
        var failedRules = Set<[Int]>()
        let pathScratch = ruleSet.makeScratch()

        var changes: [StagedChange] = []
        for ch in listed where !ch.isDeletion {
            let path = PathText.display(ch.path)
            if ch.isGitlink { notes.append("\(path): submodule (gitlink) entry; not scanned"); continue }
            // The path stage: a path-only rule reports a path new in the index (added, or
            // renamed there), whatever its bytes.
            if ch.oldBlob.isZero || ch.oldPath != nil {
                result.findings += PathOnlyRules.findings(ruleSet, provenance: .staged(path: ch.path), scratch: pathScratch,
                                                          hash: { pipeline.scanner.secretHash($0) }, builder: &builder, onFailure: { failure in
                    result.issues.append(ScanIssue(path: path, message: failure.describe(ruleId: pipeline.rules[failure.ruleIndex].id, unit: "file")))
                })
            }
            // A symlink (mode 120000) is scanned too: its blob is the target text, which `history`
            // scans, and a key can be committed as a link target as well as in a file.
            if ch.oldBlob == ch.newBlob { continue }  // a pure rename or mode change adds nothing
            changes.append(ch)
        }
        // One batch through one cat-file: staged changes are small and must feel instant.
        let paths = changes.map { PathText.display($0.path) }
        let (blobs, unreadable, streamed) = read(changes.map(\.newBlob), with: reader, paths: paths, front: front, onFailure: { i, failure in
            result.issues.append(ScanIssue(path: paths[i], message: failure.describe(ruleId: pipeline.rules[failure.ruleIndex].id, unit: "file")))
        })
        var scanned: [Scanned] = []
        for (i, ch) in changes.enumerated() {
            let path = paths[i]
            if let big = streamed[i] {
                for issue in big.issues { result.issues.append(ScanIssue(path: ArchiveMemberScan.path(path, issue.members), message: issue.message)) }
                result.stats.files += 1
                result.stats.bytes += big.size
                if big.binary { result.stats.binaries += 1 }
                scanned.append(Scanned(change: ch, path: path, bytes: [], binary: big.binary, found: big.found))
                continue
            }
            guard let bytes = blobs[ch.newBlob] else {
                result.issues.append(ScanIssue(path: path, message: unreadable[ch.newBlob] ?? "staged object unreadable"))
                continue
            }
            result.stats.files += 1
            result.stats.bytes += bytes.count
            var item = Scanned(change: ch, path: path, bytes: bytes, binary: false, found: [])
            var archiveIssues: [ScanIssue] = []
            bytes.withUnsafeBytes { raw in
                // A staged archive is opened as `scan` opens the file (its findings are hashed);
                // the file's own findings are hashed below, only those kept.
                let outcome = front.scan(.memory(raw), path: path, hashSecrets: false, sink: InputFront.Sink(onFinding: { item.found.append($0) },
                                                                                                   onFailure: { failure, place in
                    let id = pipeline.rules[failure.ruleIndex].id
                    switch place {
                    case .input:
                        if failedRules.insert([scanned.count] + failure.key).inserted {
                            result.issues.append(ScanIssue(path: path, message: failure.describe(ruleId: id, unit: "file")))
                        }
                    case .archive(let members):
                        let issue = ScanIssue(path: ArchiveMemberScan.path(path, members), message: failure.describe(ruleId: id, unit: "member"))
                        if !archiveIssues.contains(issue) {
                            archiveIssues.append(issue)
                            result.issues.append(issue)
                        }
                    }
                }, onProblem: { members, message in
                    // An archive's problems, and as `scan` reports a malformed binary file
                    // (its bytes were still scanned).
                    result.issues.append(ScanIssue(path: ArchiveMemberScan.path(path, members), message: message))
                }))
                item.binary = outcome.opened != nil || outcome.binary
            }
            if item.binary { result.stats.binaries += 1 }
            scanned.append(item)
        }

        // Now the added lines.
        let diff: StagedDiff
        do { diff = try reading.finish() } catch { return fail(error) }
        var added: [[UInt8]: [ClosedRange<Int>]] = [:]
        for ch in diff.changes { if let lines = ch.addedLines { added[ch.path] = lines } }
        // Without text hunks (binary, or `-diff`): the secrets absent from HEAD's version.
        func comparesWithHead(_ item: Scanned) -> Bool {
            (item.binary || added[item.change.path] == nil) && !item.change.oldBlob.isZero && item.change.oldMode != TreeChange.gitlinkMode
        }
        let heads = scanned.filter(comparesWithHead)
        let (oldBlobs, _, oldStreamed) = read(heads.map(\.change.oldBlob), with: reader,
                                              paths: heads.map { PathText.display($0.change.oldPath ?? $0.change.path) },
                                              front: front, onFailure: { _, _ in })
        var oldKeys: [ObjectID: Set<SecretKey>] = [:]
        for (i, item) in heads.enumerated() {
            if let big = oldStreamed[i] { oldKeys[item.change.oldBlob] = Set(big.found.map { CachedFinding($0).key }) }
        }

        for item in scanned {
            let ch = item.change
            let lines = item.binary ? nil : added[ch.path]
            var before: Set<SecretKey>?
            if comparesWithHead(item) {
                var keys = oldKeys[ch.oldBlob] ?? Set<SecretKey>()
                if let old = oldBlobs[ch.oldBlob] {
                    let oldPath = PathText.display(ch.oldPath ?? ch.path)
                    old.withUnsafeBytes { raw in
                        _ = front.scan(.memory(raw), path: oldPath, sink: InputFront.Sink(onFinding: { keys.insert(CachedFinding($0).key) },
                                                                                          onFailure: { _, _ in }, onProblem: { _, _ in }))
                    }
                }
                before = keys
            }
            // Every finding of the file counts for the ordinals (those on lines not added too),
            // as `scan` of the file counts them.
            var ordinals = FingerprintOrdinals()
            for var f in item.found {
                if f.secretHash.isEmpty {
                    item.bytes.withUnsafeBytes {
                        let value = UnsafeRawBufferPointer(rebasing: $0[f.range])
                        f.secretHash = pipeline.scanner.identities([value])[0]
                        if pipeline.scanner.computesTags { f.tags = pipeline.scanner.valueTags([value])[0] }
                    }
                }
                let rule = ruleSet.rules[f.ruleIndex]
                let provenance = ProvenanceStep.apply(f.steps, to: .staged(path: pipeline.names.vet(item.change.path)))
                let location = Location(f, provenance: provenance)
                let ordinal = ordinals.ordinal(rule: rule.id, location: location, identity: f.secretHash)
                if let lines {
                    guard let first = f.line else { continue }
                    let last = max(first, f.endLine ?? first)
                    if !lines.contains(where: { $0.overlaps(first...last) }) { continue }
                }
                if let before, before.contains(CachedFinding(f).key) { continue }
                if let finding = builder.build(rule: rule, location: location, secretHash: f.secretHash,
                                               suppression: f.suppression, checksum: f.checksum, confidence: f.confidence, provider: f.provider, tags: f.tags, ordinal: ordinal) {
                    result.findings.append(finding)
                }
            }
        }
        result.stats.suppressed = builder.suppressed.counts
        result.suppressed = builder.suppressed.kept.sorted()
        result.findings.sort()
        result.issues.sort()
        result.stats.seconds = Date().timeIntervalSince(started)
        return (result, notes)
    }

    /// Reads `ids` through `reader`: their bytes, or why not. A blob over the chunk size is
    /// not kept: it is scanned in chunks as it is read (with the path at the same index of
    /// `paths`), and comes back in `streamed` by index.
    private func read(_ ids: [ObjectID], with reader: CatFileReader, paths: [String], front: InputFront,
                      onFailure: @escaping (_ index: Int, _ failure: RuleFailure) -> Void)
        -> (blobs: [ObjectID: [UInt8]], unreadable: [ObjectID: String], streamed: [Int: Streamed]) {
        var blobs: [ObjectID: [UInt8]] = [:]
        var unreadable: [ObjectID: String] = [:]
        var streamed: [Int: Streamed] = [:]
        if ids.isEmpty { return (blobs, unreadable, streamed) }
        reader.read(ids, maxSize: options.maxFileSize, streamAbove: options.chunkSize) { i, r in
            switch r {
            case .object(_, let bytes):
                blobs[ids[i]] = Array(bytes)
                largestBlobBuffer = max(largestBlobBuffer, bytes.count)
            case .stream(_, let size, let stream):
                largestBlobBuffer = max(largestBlobBuffer, options.chunkSize)
                var found: [BufferFinding] = []
                var issues: [(members: [[UInt8]], message: String)] = []
                let outcome = front.scan(.gitStream(stream, size: size), path: paths[i], sink: InputFront.Sink(onFinding: { found.append($0) },
                                                                                                              onFailure: { failure, place in
                    switch place {
                    case .input: onFailure(i, failure)
                    case .archive(let members):
                        let message = failure.describe(ruleId: front.pipeline.rules[failure.ruleIndex].id, unit: "member")
                        if !issues.contains(where: { $0.members == members && $0.message == message }) { issues.append((members, message)) }
                    }
                }, onProblem: { issues.append(($0, $1)) }))
                if outcome.complete {
                    streamed[i] = Streamed(size: size, binary: outcome.binary, found: found, issues: issues)
                } else {
                    unreadable[ids[i]] = "git cat-file ended inside staged object \(ids[i].hex); not scanned whole"
                }
            case .tooLarge(_, let size): unreadable[ids[i]] = "staged file is \(size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise the limit with --max-file-size, or `[scan] maxFileSize` in your --config FILE)"
            case .missing: unreadable[ids[i]] = "staged object \(ids[i].hex) missing or corrupt"
            case .failed(let m): unreadable[ids[i]] = m
            }
        }
        return (blobs, unreadable, streamed)
    }
}
