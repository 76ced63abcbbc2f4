import FileInputs
import Foundation
import GitHistory
import ScanCore
import MatchEngine

/// One scan's state.
struct HistoryRun {
    let scanner: HistoryScanner
    let git: Git
    let workers: BlobWorkers
    let mergeDeletions: MergeDeletions
    let cache: any BlobFindingsCache = InMemoryBlobFindingsCache()
    /// The records a persistent store keeps across runs (`HistoryScanner.blobStore`).
    let stored: StoredBlobScans?
    /// Blobs whose entries came from `stored`, not from git.
    var storedBlobs = 0
    /// Issues that are a property of a blob's bytes under these rules (a pattern that gave
    /// up, a damaged archive, a blob over the size limit): every run with the same rules
    /// meets them again, so a later run that builds on this one may carry them forward.
    var repeatableIssues = 0
    /// Commits skipped as attributed by the killed run this one resumes (`CommitWalkLog`).
    var resumedCommits = 0
    /// Issues already handed to the walk log.
    var loggedIssues = 0
    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var notes: [String] = []
    var stats = ScanStats()
    var builder: FindingBuilder
    var gitlinkPaths = Set<String>()
    /// For settling path and commit conditions (`RuleSet.settle`).
    let scratch: MatchScratch
    /// Patterns that gave up while settling, once per blob, place and message.
    var settleFailures = Set<String>()
    /// The keyed hash of paths a path-only rule reports (`PathOnlyRules`).
    let pathHashes: SecretHashMemo
    /// Paths vetted for keys before they become places (`NameVetting`).
    let names: NameVetting

    init(scanner: HistoryScanner, git: Git) {
        self.scanner = scanner
        self.git = git
        workers = BlobWorkers(git: git, ruleSet: scanner.ruleSet, options: scanner.options, progress: scanner.progress,
                              count: scanner.options.jobs)
        mergeDeletions = MergeDeletions(git: git, ruleSet: scanner.ruleSet, options: scanner.options)
        scratch = scanner.ruleSet.makeScratch()
        builder = FindingBuilder(options: scanner.options)
        pathHashes = SecretHashMemo(options: scanner.options)
        names = NameVetting(ruleSet: scanner.ruleSet)
        stored = StoredBlobScans(scanner.blobStore, ruleSet: scanner.ruleSet)
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
        let workers = self.workers, ruleSet = scanner.ruleSet, progress = scanner.progress, stored = self.stored
        let walkLog = scanner.walkLog
        let resumed = walkLog?.resumedIDs() ?? []
        let skippedCommits = ResumedCount()
        Thread.detachNewThread {
            workers.reader.open()  // git's blob reader starts while the first batch is listed
            var requested = Set<ObjectID>()
            var skipped = Set<ObjectID>()
            let scratch = ruleSet.makeScratch()
            while var batch = listed.takeAll() {
                // A resumed walk: what the killed run attributed is neither read nor attributed
                // again (its findings are in the datastore). The other commits ask for the blobs
                // they need, old ones included, as any batch does.
                if !resumed.isEmpty {
                    let all = batch.count
                    batch.removeAll { resumed.contains($0.commit.id) }
                    skippedCommits.add(all - batch.count)
                    // Counted as done, so the progress line still reaches its total.
                    progress.commitsDone.add(all - batch.count, ordering: .relaxed)
                    if batch.isEmpty { continue }
                }
                let before = skipped.count
                let planned = HistoryRun.blobsToScan(batch, requested: &requested, skipped: &skipped, ruleSet: ruleSet, scratch: scratch)
                // Blobs an earlier run scanned with the same rules are not read again.
                let (known, requests) = stored?.split(planned) ?? ([], planned)
                progress.filesTotal.add(requests.count, ordering: .relaxed)
                read.put(ReadBatch(commits: batch, requests: requests, pending: workers.start(requests), allowlistedBlobs: skipped.count - before,
                                   known: known))
            }
            read.finish(error: listed.error)
        }
        while let batch = read.take() {
            for (id, entry) in batch.known { cache.store(entry, for: id) }
            storedBlobs += batch.known.count
            let outcomes = batch.pending.outcomes()
            record(batch.requests, outcomes)
            stored?.save(batch.requests, outcomes)
            stats.allowlistedFiles += batch.allowlistedBlobs
            let reported = findings.count
            for c in batch.commits { attribute(c) }
            // Handed on batch by batch (the datastore records them as the run goes).
            if let sink = scanner.sink, findings.count > reported { sink.receive(Array(findings[reported...])) }
            // The walk's position, once the batch's findings are with the sink (CommitWalkLog).
            if let walkLog, issues.count == repeatableIssues {
                walkLog.attributed(batch.commits.map { StoredBlobScans.raw($0.commit.id) }, issues: Array(issues[loggedIssues...]))
                loggedIssues = issues.count
            }
        }
        resumedCommits = skippedCommits.value
        if let error = read.error { issues.append(ScanIssue(path: "", message: "\(error)")) }
    }

    struct ReadBatch {
        var commits: [CommitChanges]
        var requests: [BlobWorkers.Request]
        var pending: BlobWorkers.Pending
        /// Blobs first met in this batch at a path a path-only allowlist covers, so not read.
        var allowlistedBlobs: Int
        /// Blobs of this batch whose entries a persistent store held (`StoredBlobScans`).
        var known: [(ObjectID, BlobEntry)] = []
    }

    /// The blobs a batch names that no earlier batch asked for, in the order git's delta-base
    /// cache wants them (`BlobReadPlan`), less those at a path a path-only allowlist covers.
    static func blobsToScan(_ batch: [CommitChanges], requested: inout Set<ObjectID>, skipped: inout Set<ObjectID>,
                            ruleSet: RuleSet, scratch: MatchScratch) -> [BlobWorkers.Request] {
        // A path a path-only allowlist covers: its blob is not read there (the same blob at
        // another path is still scanned when that path asks for it).
        BlobReadPlan.blobs(batch, requested: &requested, skipped: &skipped,
                           skip: { ruleSet.allowsWholeFile(HistoryRun.displayPath($0), scratch: scratch) })
    }

    /// Caches what scanning gave and counts it.
    mutating func record(_ requests: [BlobWorkers.Request], _ outcomes: [BlobWorkers.Outcome]) {
        for (request, outcome) in zip(requests, outcomes) {
            cache.store(outcome.entry, for: request.id)
            count(outcome)
            repeatableIssues += outcome.ruleFailures.count + (outcome.entry.state == .tooLarge ? 1 : 0)
            if let issue = outcome.issue { issues.append(ScanIssue(path: request.context, message: "blob \(request.id.hex): \(issue)")) }
            for f in outcome.ruleFailures { issues.append(ScanIssue(path: request.context, message: "blob \(request.id.hex): \(f)")) }
        }
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
                    guard let suppression = settle(f, blob: request.id, path: nil, commit: nil) else { continue }
                    let location = f.location(.unreachableBlob(blob: request.id.hex))
                    if let finding = builder.build(rule: rule, location: location, secretHash: f.hashText, suppression: suppression.kind, checksum: f.checksum, confidence: f.confidence, provider: f.provider,
                                                   tags: f.tags) {
                        findings.append(finding)
                    }
                }
            }
        }
    }
}
