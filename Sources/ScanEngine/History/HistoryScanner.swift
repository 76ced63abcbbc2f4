import FileInputs
import Foundation
import GitHistory
import ScanCore
import ScanRules

/// What part of a repository's history to scan.
public struct HistoryOptions: Sendable {
    /// Only commits not reachable from these (`--since REV`, repeatable).
    public var since: [String] = []
    /// `A..B` (commits reachable from B, not from A) or `B`; A may be the zero id (a new
    /// ref in a pre-receive hook: then commits on no existing ref).
    public var ranges: [String] = []
    /// Also every blob no scanned commit reaches (`--all-objects`), reported as kind `blob`.
    public var allObjects = false
    /// At most this many commits per batch (memory holds a few batches of changes).
    public var batchCommits = 1000

    public init() {}
}

/// Scans a repository's history: every unique blob once (findings cached per blob id),
/// then each finding attributed to every commit whose change makes that secret appear at
/// that path: present in the new blob, absent from each parent's blob at that path, and,
/// where the parent lacks the path, absent from what the commit deleted relative to that
/// parent (a rename; see `HistoryRun.attribute`). Never prints.
public final class HistoryScanner: @unchecked Sendable {
    public let ruleSet: RuleSet
    public let options: ScanOptions
    public let history: HistoryOptions
    public let progress = ScanProgress()
    let sensitivity: ContextSensitivity
    /// The largest buffer the last scan held blob bytes in (tests of the memory bound).
    private(set) var largestBlobBuffer = 0

    public init(ruleSet: RuleSet, options: ScanOptions, history: HistoryOptions) {
        self.ruleSet = ruleSet
        self.options = options
        self.history = history
        sensitivity = ContextSensitivity(ruleSet)
    }

    /// A problem with the request itself (bad revision): the scan does not start.
    public struct RequestError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The repository opened and git already listing its commits: made without the rules,
    /// so a command can do it while the rules compile.
    public struct Input: @unchecked Sendable {
        let git: Git
        let log: Result<CommitLog, Error>
        let started: Date
    }

    /// Opens the repository and starts `git rev-list | git diff-tree`.
    /// - Throws: `GitError` when git is missing or the path is no repository, and
    ///   `RequestError` for a revision that names no commit. Everything that goes wrong
    ///   once scanning started becomes an issue in the result instead.
    public static func open(repository: String, history: HistoryOptions, gitOptions: Git.Options = Git.Options()) throws -> Input {
        let started = Date()
        let git = try Git(repository: repository, options: gitOptions)
        let selection = try HistoryScanner.selection(git, history)
        return Input(git: git, log: Result { try CommitLog(git: git, selection: selection) }, started: started)
    }

    public func scan(repository: String, gitOptions: Git.Options = Git.Options()) throws -> (result: ScanResult, notes: [String]) {
        scan(try HistoryScanner.open(repository: repository, history: history, gitOptions: gitOptions))
    }

    public func scan(_ input: Input) -> (result: ScanResult, notes: [String]) {
        let git = input.git
        var run = HistoryRun(scanner: self, git: git)
        run.notes += git.isShallow
            ? ["shallow repository: history before the shallow boundary is not present; the boundary commits' files are reported as added there"]
            : []
        if git.ignoredShallowEntries > 0 {
            let n = git.ignoredShallowEntries
            run.notes.append("the repository's shallow file lists \(n) commit\(n == 1 ? "" : "s") whose parents are present (a real shallow clone lacks them); \(n == 1 ? "that entry was" : "those entries were") ignored, so history is read as the objects say")
        }
        // Commit messages, annotated tags and notes, on their own thread (CommitTextScanner.swift).
        let texts = CommitTextScanner(scanner: self, git: git)
        texts.start()
        run.scanCommits(input.log)
        if history.allObjects { run.scanUnreachable() }
        texts.finish(into: &run)
        run.mergeDeletions.close()
        run.workers.close()
        run.verifier.close()
        largestBlobBuffer = run.workers.largestBuffer
        var result = ScanResult(rules: ruleSet.ruleInfos)
        result.findings = run.findings.sorted()
        result.issues = (run.issues + run.verifier.issues).sorted()
        result.stats = run.stats
        result.stats.suppressed = run.suppressed.counts
        result.suppressed = run.suppressed.kept.sorted()
        result.stats.seconds = Date().timeIntervalSince(input.started)
        return (result, run.notes)
    }

    static func selection(_ git: Git, _ history: HistoryOptions) throws -> CommitSelection {
        var s = CommitSelection()
        if history.since.isEmpty && history.ranges.isEmpty { return s }
        if history.allObjects { throw RequestError(message: "--all-objects scans the whole object store; it cannot be combined with --since or --range") }
        func commit(_ rev: String, _ flag: String) throws -> String {
            guard !rev.isEmpty, !rev.hasPrefix("-"), let id = try git.resolveCommit(rev) else {
                throw RequestError(message: "\(flag) \(rev): not a commit in \(git.root)")
            }
            return id.hex
        }
        s.allRefsAndReflogs = history.ranges.isEmpty
        for rev in history.since { s.exclude.append(try commit(rev, "--since")) }
        for range in history.ranges {
            let parts = range.components(separatedBy: "..")
            if parts.count == 1 {
                if ObjectID(range)?.isZero == true { continue }  // a deleted ref: nothing to scan
                s.include.append(try commit(range, "--range"))
            } else if parts.count == 2, !parts[1].hasPrefix(".") {
                if ObjectID(parts[1])?.isZero == true { continue }
                s.include.append(try commit(parts[1], "--range"))
                if ObjectID(parts[0])?.isZero == true { s.excludeAllRefs = true } else { s.exclude.append(try commit(parts[0], "--range")) }
            } else {
                throw RequestError(message: "--range \(range): expected A..B or B")
            }
        }
        return s
    }
}

/// One scan's state.
struct HistoryRun {
    let scanner: HistoryScanner
    let git: Git
    let workers: BlobWorkers
    let verifier: ContextVerifier
    let mergeDeletions: MergeDeletions
    var cache: [ObjectID: BlobEntry] = [:]
    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var notes: [String] = []
    var stats = ScanStats()
    var suppressed: SuppressionTally
    var gitlinkPaths = Set<String>()

    init(scanner: HistoryScanner, git: Git) {
        self.scanner = scanner
        self.git = git
        workers = BlobWorkers(git: git, ruleSet: scanner.ruleSet, options: scanner.options, progress: scanner.progress,
                              count: scanner.options.jobs)
        mergeDeletions = MergeDeletions(git: git, ruleSet: scanner.ruleSet, options: scanner.options)
        verifier = ContextVerifier(git: git, ruleSet: scanner.ruleSet, options: scanner.options)
        suppressed = SuppressionTally(keep: scanner.options.keepSuppressed)
    }

    /// A git path for reports: invalid UTF-8 bytes as `\xNN` (as the folder scanner shows
    /// them), while fingerprints come from the raw bytes, so two paths that differ only in
    /// such bytes stay two places.
    static func displayPath(_ bytes: [UInt8]) -> String { PathText.display(bytes) }

    /// Three stages run at once: a thread lists commits and their changes (git rev-list |
    /// diff-tree), a thread asks git for the blobs each batch of commits needs and hands
    /// them to the scanning threads, and this thread attributes each batch once its blobs
    /// are scanned. git's blob reader is never left waiting for a batch to finish.
    mutating func scanCommits(_ opened: Result<CommitLog, Error>) {
        let log: CommitLog
        do { log = try opened.get() } catch {
            issues.append(ScanIssue(path: "", message: "\(error)"))
            return
        }
        // Commits go one by one to the reader, which takes all those listed whenever it is
        // ready for more: at first a few, so git starts sending blobs at once, then, while
        // the listing runs ahead, up to `batchCommits` (more versions of a file side by side)
        // or 50,000 changed paths.
        let listed = BatchQueue<CommitChanges>(capacity: scanner.history.batchCommits, maxWeight: 50_000)
        let read = BatchQueue<ReadBatch>(capacity: 2)
        Thread.detachNewThread {
            do {
                while let c = try log.next() { listed.put(c, weight: c.changes.count) }
                listed.finish(error: nil)
            } catch {
                listed.finish(error: error)
            }
        }
        let workers = self.workers, ruleSet = scanner.ruleSet, progress = scanner.progress
        Thread.detachNewThread {
            workers.reader.open()  // git's blob reader starts while the first batch is listed
            var requested = Set<ObjectID>()
            var skipped = Set<ObjectID>()
            let scratch = ruleSet.makeScratch()
            while let batch = listed.takeAll() {
                let before = skipped.count
                let requests = HistoryRun.blobsToScan(batch, requested: &requested, skipped: &skipped, ruleSet: ruleSet, scratch: scratch)
                progress.filesTotal.add(requests.count, ordering: .relaxed)
                read.put(ReadBatch(commits: batch, requests: requests, pending: workers.start(requests), allowlistedBlobs: skipped.count - before))
            }
            read.finish(error: listed.error)
        }
        while let batch = read.take() {
            record(batch.requests, batch.pending.outcomes())
            stats.allowlistedFiles += batch.allowlistedBlobs
            for c in batch.commits { attribute(c) }
        }
        if let error = read.error { issues.append(ScanIssue(path: "", message: "\(error)")) }
    }

    struct ReadBatch {
        var commits: [CommitChanges]
        var requests: [BlobWorkers.Request]
        var pending: BlobWorkers.Pending
        /// Blobs first met in this batch at a path a path-only allowlist covers, so not read.
        var allowlistedBlobs: Int
    }

    /// The blobs a batch names (both sides of each change) that no earlier batch asked for.
    /// The blobs are grouped by path, oldest version first, and each names the version
    /// before it as `base`: versions of one file then travel together, and the scanner
    /// searches only where each differs from the one before.
    ///
    /// Oldest first because of git's delta-base cache: packs keep the newest version whole
    /// and older ones as deltas on newer ones, and reading an object caches the bases it was
    /// rebuilt from but not the object itself. Read newest first, every older version
    /// rebuilds its base again; read oldest first, one walk down the chain leaves every
    /// newer version in the cache. Measured on the benchmark repository: git cat-file ran
    /// 674 million instructions instead of 804 million for the same blobs.
    /// - Parameter skipped: the blobs left unread at an allowlisted path so far (counted in
    ///   the summary; one read at another path later still counts once here).
    static func blobsToScan(_ batch: [CommitChanges], requested: inout Set<ObjectID>, skipped: inout Set<ObjectID>,
                            ruleSet: RuleSet, scratch: MatchScratch) -> [BlobWorkers.Request] {
        var wanted: [(path: [UInt8], request: BlobWorkers.Request)] = []
        func want(_ id: ObjectID, _ mode: UInt32, path: [UInt8], commit: ObjectID, group: [UInt8]) {
            if id.isZero || mode == TreeChange.gitlinkMode || requested.contains(id) { return }
            // A path a path-only allowlist covers: its blob is not read there (the same blob
            // at another path is still scanned when that path asks for it).
            if ruleSet.allowsWholeFile(HistoryRun.displayPath(path), scratch: scratch) { skipped.insert(id); return }
            requested.insert(id)
            wanted.append((group, BlobWorkers.Request(id: id, path: path, commit: commit)))
        }
        for c in batch {
            for ch in c.changes {
                if !ch.isDeletion { want(ch.newBlob, ch.newMode, path: ch.path, commit: c.commit.id, group: ch.path) }
                for (i, old) in ch.oldBlobs.enumerated() {
                    want(old, ch.oldModes[i], path: ch.oldPath ?? ch.path,
                         commit: c.commit.parents.indices.contains(i) ? c.commit.parents[i] : c.commit.id, group: ch.path)
                }
            }
        }
        // Groups in the order their paths first appear; versions within a group oldest first
        // (commits come newest first).
        var groupOf: [[UInt8]: Int] = [:]
        var groups: [[Int]] = []
        for (i, w) in wanted.enumerated() {
            if let g = groupOf[w.path] {
                groups[g].append(i)
            } else {
                groupOf[w.path] = groups.count
                groups.append([i])
            }
        }
        var requests: [BlobWorkers.Request] = []
        requests.reserveCapacity(wanted.count)
        for group in groups {
            for (k, i) in group.reversed().enumerated() {
                var request = wanted[i].request
                if k > 0 { request.base = requests.count - 1 }
                requests.append(request)
            }
        }
        return requests
    }

    /// Caches what scanning gave and counts it.
    mutating func record(_ requests: [BlobWorkers.Request], _ outcomes: [BlobWorkers.Outcome]) {
        for (request, outcome) in zip(requests, outcomes) {
            cache[request.id] = outcome.entry
            count(outcome)
            if let issue = outcome.issue { issues.append(ScanIssue(path: request.context, message: "blob \(request.id.hex): \(issue)")) }
            for f in outcome.ruleFailures { issues.append(ScanIssue(path: request.context, message: "blob \(request.id.hex): \(f)")) }
        }
    }

    /// Reports each secret that `c` makes appear at a path: in the new blob, and held by no
    /// parent there. Where a parent lacks the path, the secret is also not new when a blob
    /// at a path that `c` deletes relative to that parent held it: that is a rename, with or
    /// without edits, found with one set lookup instead of git's similarity-based rename
    /// detection (`-M`, which kept `git diff-tree` at one full core for a whole git.git
    /// history). A copy to a second path, the original kept, is still new there, as it was
    /// with `-M`. Where the two rules part: `-M` pairs a deleted file with an added one only
    /// when at least half their lines agree, so a key moved out of a deleted file into a
    /// new, mostly different one was reported again; now it is not, because the repository
    /// held that key the moment before. A path the parent already had (modified, not
    /// added) is compared with the parent's blob at that path only, as before, so a key
    /// moved into an existing file is new there.
    mutating func attribute(_ c: CommitChanges) {
        stats.commits += 1
        scanner.progress.commitsDone.add(1, ordering: .relaxed)  // the progress line's count (ProgressLine)
        // Per parent, the secrets the commit's deletions held, worked out on first need.
        var deleted: [Int: Set<SecretKey>] = [:]
        for ch in c.changes where !ch.isDeletion {
            if ch.isGitlink {
                let path = HistoryRun.displayPath(ch.path)
                if gitlinkPaths.insert(path).inserted {
                    notes.append("\(path): submodule (gitlink) entry, first seen in commit \(c.commit.id.hex); its history is not part of this repository and was skipped")
                }
                continue
            }
            guard let entry = cache[ch.newBlob], !entry.findings.isEmpty else { continue }
            var before = Set<SecretKey>()
            for old in ch.oldBlobs where !old.isZero {
                for f in cache[old]?.findings ?? [] { before.insert(f.key) }
            }
            var fresh = entry.findings.filter { !before.contains($0.key) }
            for (i, old) in ch.oldBlobs.enumerated() where old.isZero && !fresh.isEmpty {
                if deleted[i] == nil { deleted[i] = deletedSecrets(c, parent: i) }
                fresh.removeAll { deleted[i]!.contains($0.key) }
            }
            var path: String?
            for f in fresh {
                let p = path ?? HistoryRun.displayPath(ch.path)
                path = p
                var suppression = f.suppression
                if scanner.sensitivity.rules[Int(f.ruleIndex)] {
                    switch verifier.verdict(f, blob: ch.newBlob, path: p, commit: scanner.sensitivity.usesCommits[Int(f.ruleIndex)] ? c.commit.id.hex : nil) {
                    case .absent: continue
                    case .reported: suppression = nil
                    case .suppressed(let kind): suppression = kind
                    }
                }
                let rule = scanner.ruleSet.rules[Int(f.ruleIndex)]
                var location = f.location(kind: .commit, path: p)
                location.commit = c.commit.id.hex
                location.blob = ch.newBlob.hex
                location.author = c.commit.author
                location.email = c.commit.email
                location.date = c.commit.date
                let hash = f.hashText
                let fingerprint = SecretHasher.fingerprint(rule: rule.id, pathBytes: ch.path, section: nil, secretHash: hash)
                let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: hash, location: location) }
                if let suppression { suppressed.add(suppression, finding); continue }
                if scanner.options.baseline.contains(fingerprint) { suppressed.add(.baseline, finding); continue }
                findings.append(finding())
            }
        }
    }

    /// The secrets held by the blobs `c` deletes relative to its parent `i`. A single-parent
    /// commit's deletions are in its own changes, their blobs read with the commit's other
    /// blobs; a merge's are asked of git (`MergeDeletions`). A root commit deletes nothing.
    mutating func deletedSecrets(_ c: CommitChanges, parent i: Int) -> Set<SecretKey> {
        guard c.commit.parents.indices.contains(i) else { return [] }
        if c.commit.parents.count == 1 {
            var keys = Set<SecretKey>()
            for ch in c.changes where ch.isDeletion {
                for old in ch.oldBlobs where !old.isZero {
                    for f in cache[old]?.findings ?? [] { keys.insert(f.key) }
                }
            }
            return keys
        }
        let known = cache
        let found = mergeDeletions.secrets(merge: c.commit.id, parent: c.commit.parents[i], known: { known[$0] })
        issues += found.issues
        return found.keys
    }

    mutating func count(_ outcome: BlobWorkers.Outcome) {
        guard outcome.entry.state == .scanned else { return }
        stats.blobs += 1
        stats.bytes += outcome.bytes
        if outcome.binary { stats.binaries += 1 }
    }

    /// `--all-objects`: every blob in the object store (loose, packed, alternates) that no
    /// scanned commit introduced, reported as kind `blob`.
    mutating func scanUnreachable() {
        var pending: [BlobWorkers.Request] = []
        let known = cache
        do {
            try git.allBlobs { id, _ in
                if known[id] == nil { pending.append(BlobWorkers.Request(id: id)) }
                return true
            }
        } catch {
            // The blobs listed before git failed are still scanned.
            issues.append(ScanIssue(path: "", message: "\(error)"))
        }
        var start = 0
        while start < pending.count {
            let slice = Array(pending[start..<min(pending.count, start + 4096)])
            start += slice.count
            scanner.progress.filesTotal.add(slice.count, ordering: .relaxed)
            let outcomes = workers.scan(slice)
            for (request, outcome) in zip(slice, outcomes) {
                count(outcome)
                let place = "blob \(request.id.hex)"
                if let issue = outcome.issue { issues.append(ScanIssue(path: place, message: issue)) }
                for f in outcome.ruleFailures { issues.append(ScanIssue(path: place, message: f)) }
                for f in outcome.entry.findings {
                    let rule = scanner.ruleSet.rules[Int(f.ruleIndex)]
                    var suppression = f.suppression
                    if scanner.sensitivity.rules[Int(f.ruleIndex)] {
                        switch verifier.verdict(f, blob: request.id, path: nil, commit: nil) {
                        case .absent: continue
                        case .reported: suppression = nil
                        case .suppressed(let kind): suppression = kind
                        }
                    }
                    var location = f.location(kind: .blob, path: nil)
                    location.blob = request.id.hex
                    let hash = f.hashText
                    let fingerprint = SecretHasher.fingerprint(rule: rule.id, path: "", section: request.id.hex, secretHash: hash)
                    let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: hash, location: location) }
                    if let suppression { suppressed.add(suppression, finding); continue }
                    if scanner.options.baseline.contains(fingerprint) { suppressed.add(.baseline, finding); continue }
                    findings.append(finding())
                }
            }
        }
    }
}

/// Re-checks a cached finding of a path- or commit-dependent rule with the real path and
/// commit (rare: only blobs with such findings are read again).
final class ContextVerifier {
    let git: Git
    let options: ScanOptions
    let ruleSet: RuleSet
    private var reader: CatFileReader?
    private var scanner: BufferScanner?
    private var chunks: StreamedBlobScanner?
    /// What each re-scan gave: rule, offset and length of a finding, and its suppression.
    private var memo: [String: [[Int]: Suppression?]] = [:]
    /// Patterns that gave up while re-checking (path filters, allowlists): error entries.
    private(set) var issues: [ScanIssue] = []
    private var failed = Set<String>()

    init(git: Git, ruleSet: RuleSet, options: ScanOptions) {
        self.git = git
        self.ruleSet = ruleSet
        self.options = options
    }

    func close() { reader?.close() }

    enum Verdict { case absent, reported, suppressed(Suppression) }

    /// Whether the finding holds with this path and commit, and whether it is then suppressed.
    func verdict(_ f: CachedFinding, blob: ObjectID, path: String?, commit: String?) -> Verdict {
        let key = blob.hex + "\u{0}" + (path ?? "") + "\u{0}" + (commit ?? "")
        if memo[key] == nil {
            if reader == nil { reader = CatFileReader(git: git); scanner = BufferScanner(ruleSet: ruleSet, options: options) }
            var kept: [[Int]: Suppression?] = [:]
            var failures: [String] = []
            let scanner = self.scanner!
            let context = MatchContext(path: path, commit: commit)
            let onFailure = { (failure: RuleFailure) in failures.append(failure.describe(ruleId: scanner.rules[failure.ruleIndex].id, unit: "blob")) }
            reader!.read([blob], maxSize: options.maxFileSize, streamAbove: options.chunkSize) { _, result in
                switch result {
                case .object(_, let bytes):
                    scanner.scan(bytes, isBinary: ChunkReader.looksBinary(bytes), context: context, hashSecrets: false,
                                 onFinding: { kept[[$0.ruleIndex, $0.range.lowerBound, $0.range.count]] = $0.suppression },
                                 onFailure: onFailure)
                case .stream(_, let size, let stream):
                    // As the blob was first scanned: in chunks, never whole.
                    if chunks == nil { chunks = StreamedBlobScanner(chunkSize: options.chunkSize) }
                    let found = chunks!.scan(stream, size: size, with: scanner, context: context, onFailure: onFailure).findings
                    for f in found { kept[[f.ruleIndex, f.range.lowerBound, f.range.count]] = f.suppression }
                default:
                    break
                }
            }
            for text in failures where failed.insert(key + "\u{0}" + text).inserted {
                issues.append(ScanIssue(path: path ?? "", message: "blob \(blob.hex): " + text))
            }
            memo[key] = kept
        }
        guard let found = memo[key]![[Int(f.ruleIndex), f.byteOffset, Int(f.byteLength)]] else { return .absent }
        return found.map { .suppressed($0) } ?? .reported
    }
}

/// A bounded hand-off between two of history's threads: the commit lister and the blob
/// reader, the blob reader and the attributing thread.
final class BatchQueue<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []
    private var weight = 0
    private let capacity: Int
    private let maxWeight: Int
    private var done = false
    private(set) var error: Error?

    /// - Parameters:
    ///   - capacity: `put` waits while this many items are queued;
    ///   - maxWeight: or while the queued items weigh this much (at least one is taken).
    init(capacity: Int, maxWeight: Int = .max) {
        self.capacity = capacity
        self.maxWeight = maxWeight
    }

    func put(_ item: T, weight w: Int = 0) {
        condition.lock()
        while !items.isEmpty && (items.count >= capacity || weight + w > maxWeight) { condition.wait() }
        items.append(item)
        weight += w
        condition.broadcast()
        condition.unlock()
    }

    /// Everything queued (at least one item, waiting for it); nil once finished and empty.
    func takeAll() -> [T]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !done { condition.wait() }
        if items.isEmpty { return nil }
        var taken: [T] = []
        swap(&taken, &items)
        weight = 0
        condition.broadcast()
        return taken
    }

    func finish(error: Error?) {
        condition.lock()
        done = true
        self.error = error
        condition.broadcast()
        condition.unlock()
    }

    func take() -> T? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !done { condition.wait() }
        if items.isEmpty { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }
}
