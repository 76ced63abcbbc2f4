import Datastore
import Foundation
import ScanCore
import ScanPipeline

/// `scan|history|audit --datastore DB`: the run is recorded as it starts (so a killed run
/// shows as unfinished), its findings as they are reported (a batch, one transaction, each
/// `Datastore.batchSize`) and what is left with its errors when it ends. History also keeps
/// each blob it scanned in the per-blob cache as each batch of commits is done
/// (`DatastoreBlobStore`), so a killed run's work is not lost: the next run reads from git
/// only the blobs no run scanned with the same rules. Fingerprints triaged as anything but
/// open become the run's baseline.
///
/// One per run, held by its `RunContext`.
public final class DatastoreRecorder {
    public let store: Datastore
    let path: String
    public let run: Int64
    public let rulesHash: String
    public let repository: RepositoryRef
    /// history: the run reads the whole history, and started from these commits (ref tips
    /// and reflog entries); recorded when it finishes without error, for the next run.
    public var tips: [String]?
    /// history: an incremental run on top of this earlier complete run, whose findings are
    /// carried forward into this one's.
    public var base: Int64?
    /// history: the killed run whose walk this one takes over (`IncrementalHistory.plan`).
    public var resuming: Int64?
    /// history: the walk's position, logged as it goes (`attach(to:)`).
    private var walkLog: DatastoreWalkLog?
    /// The sink that records findings as they are reported (`streaming(into:)`).
    private var sink: DatastoreSink?
    /// history, audit: the per-blob cache (`attach(to:)`).
    private var blobStore: DatastoreBlobStore?
    /// `--min-confidence`: what is below it is in no report, the datastore included.
    private let minConfidence: Confidence

    /// A sink for the scanner that records each batch as it fills, then hands the findings
    /// on to `next`. The findings it recorded are not recorded again at the end.
    public func streaming(into next: (any FindingSink)?) -> any FindingSink {
        let s = DatastoreSink(store: store, run: run, minConfidence: minConfidence, next: next)
        sink = s
        return s
    }

    /// history (and audit's history): findings recorded batch by batch as commits are
    /// attributed, and the datastore's blob scans for these rules as the per-blob cache.
    /// Without a cache (it could not be opened) the run still scans and records its findings;
    /// the reason is an error at the end.
    public func attach(to history: HistoryScanner) {
        history.sink = streaming(into: history.sink)
        self.history = history
        do {
            let cache = try DatastoreBlobStore(path: path, rulesHash: rulesHash)
            blobStore = cache
            history.blobStore = cache
        } catch {
            cacheFailure = error
        }
        // A whole-history run (`tips` known) logs its walk, and takes over a killed one's.
        guard let tips else { return }
        do {
            let adopted = try store.beginWalk(run: run, tips: tips, base: base, resuming: resuming)
            let log = DatastoreWalkLog(store: store, run: run, sink: sink, resumedCommits: adopted.commits, adoptedIssues: adopted.issues)
            walkLog = log
            history.walkLog = log
        } catch {
            // Nothing adopted (one transaction): the run walks every commit; not recording
            // its walk is an error at the end.
            cacheFailure = cacheFailure ?? error
        }
    }

    /// The note a resumed history run gives.
    public static func resumeNote(_ commits: Int, killed: Int64) -> String {
        "resumed the walk of run \(killed), which was killed: the \(commits) commit\(commits == 1 ? "" : "s") it attributed were not attributed again (its findings are carried over)"
    }
    private var cacheFailure: Error?
    private var history: HistoryScanner?

    /// The run's baseline: `--baseline`'s fingerprints, and the datastore's settled values.
    var baseline: Set<String> = []
    var settledPairs: Set<String> = []
    /// `--include-suppressed` was not given: the findings the triage baseline suppressed are
    /// recorded (they are still there), then left out of the report.
    let dropSuppressedFromReport: Bool

    private init(store: Datastore, path: String, run: Int64, rulesHash: String, repository: RepositoryRef, dropSuppressedFromReport: Bool,
                 minConfidence: Confidence) {
        self.minConfidence = minConfidence
        self.store = store
        self.path = path
        self.run = run
        self.rulesHash = rulesHash
        self.repository = repository
        self.dropSuppressedFromReport = dropSuppressedFromReport
    }

    /// Opens the datastore (refusing a file keyshape did not write, before any scanning),
    /// adds its settled fingerprints to the baseline and records the run's start.
    static func start(_ inv: Invocation, roots: [String], options: inout ScanOptions, flagNames: [String]) throws -> DatastoreRecorder? {
        guard recordsRuns(inv.command), let path = inv.datastore.path else { return nil }
        let store = try DatastoreAccess.open(path, create: true)
        do {
            options.settledPairs.formUnion(try store.settledPairs())
            // Hashes group by secret across the datastore's runs: its own key, unless the user
            // gave one (which then must stay the same for the datastore's cache to be reused).
            if options.secretKeying.source != .user {
                options.secretKeying = SecretKeying(key: try store.secretKey(), source: .datastore)
            }
            options.keepSuppressed = true
            let repository = self.repository(inv.command, roots: roots, store: store)
            let hash = RulesIdentity.hash(inv.rules, options: options)
            let run = try store.beginRun(RunStart(
                command: inv.command.rawValue, arguments: flagNames,
                keyshapeVersion: KeyshapeVersion.current, rulePack: BuiltinRules.packVersion,
                rulesHash: hash, repository: repository))
            let recorder = DatastoreRecorder(store: store, path: path, run: run, rulesHash: hash, repository: repository,
                                             dropSuppressedFromReport: !inv.report.includeSuppressed, minConfidence: inv.report.minConfidence ?? .low)
            recorder.baseline = options.baseline
            recorder.settledPairs = options.settledPairs
            return recorder
        } catch {
            throw DatastoreAccess.failure(path, error)
        }
    }

    /// The note a history run gives when the per-blob cache spared it reading blobs.
    public static func cacheNote(_ blobs: Int) -> String {
        "\(blobs) blob\(blobs == 1 ? "" : "s") already scanned with these rules came from the datastore (not read from git again)"
    }

    static func recordsRuns(_ command: Invocation.Command) -> Bool { Invocation.Command.recording.contains(command) }

    /// An incremental run's report: every finding this run now counts as seen (its own and
    /// those carried forward), less the ones the baseline (triage, `--baseline`) settles.
    private func carried(_ result: ScanResult) throws -> (findings: [Finding], baselined: Int) {
        let seen = try store.findings(FindingFilter(lastSeenRun: run)).map(\.finding)
        var findings: [Finding] = [], baselined = 0
        for f in seen {
            if baseline.contains(f.fingerprint) || settledPairs.contains(f.fingerprint + "/" + f.secretHash) { baselined += 1 } else { findings.append(f) }
        }
        return (findings.sorted(), baselined)
    }

    /// history and audit: the repository's work tree root (its git identity when git can say);
    /// scan: the scanned folder (the current folder for several arguments or a file).
    static func repository(_ command: Invocation.Command, roots: [String], store: Datastore) -> RepositoryRef {
        switch command {
        case .history, .audit:
            let root = ArtifactRoots.repository(roots.first ?? ".").sourceRoot
            // Asked of git once per repository: finding the root commits walks the whole history.
            if (try? store.knowsIdentity(root: root)) == true { return RepositoryRef(root: root) }
            return RepositoryRef(root: root, identity: DatastoreAccess.identity(ofRepository: root))
        default:
            let root = ArtifactRoots.scan(roots).bases.first?.directory ?? FileManager.default.currentDirectoryPath
            return RepositoryRef(root: root)
        }
    }

    /// Records `result` and marks the run finished; the result the reports should show
    /// (suppressed findings only when asked for). A write that fails is an error line and
    /// exit status 2: the run was asked to be recorded and was not.
    func finish(_ result: ScanResult, context: RunContext) -> (report: ScanResult, recorded: Bool) {
        var report = result
        let triaged = result.suppressed.filter { $0.suppression == .baseline }.map(\.finding)
        if dropSuppressedFromReport { report.suppressed = [] }
        do {
            if let sink {
                // Reported findings went through the sink; the baseline's were never streamed.
                // Should a path of the scanner not stream (it is not the datastore's to know),
                // the whole result is recorded again: recording a finding twice is one row.
                let streamed = try sink.finish()
                try store.record(streamed == result.findings.count ? triaged : result.findings + triaged, run: run)
            } else {
                try store.record(result.findings + triaged, run: run)
            }
            // The walk log recorded some already (a resumed run's adopted errors among them).
            let recordedIssues = walkLog?.recorded ?? []
            try store.record(result.issues.filter { !recordedIssues.contains($0) }, run: run)
            if let adopted = walkLog?.adoptedIssues, !adopted.isEmpty {
                report.issues = Array(Set(report.issues).union(adopted)).sorted()
            }
            // A run is complete (a later one may build on it) when it read the whole history
            // and each of its errors is one the blob's bytes give under these rules: those the
            // later run carries forward, so it exits 2 where a full run would.
            let repeatable = history?.repeatableIssues ?? 0
            if let base {
                let earlier = try store.errors(run: base)
                let fresh = Set(report.issues)
                let carriedIssues = earlier.filter { !fresh.contains($0) }
                try store.record(carriedIssues, run: run)
                report.issues = (report.issues + carriedIssues).sorted()
            }
            // The blob cache's writes: asked to record, not recorded, is exit 2 (the findings
            // above are complete; the next run reads again what was not kept).
            blobStore?.flush()
            if let failure = cacheFailure ?? blobStore?.failure ?? walkLog?.failure { throw failure }
            if let base {
                // What the earlier runs found in the commits this one did not walk: with this
                // run's own, the findings a full run gives.
                try store.carryForward(from: base, to: run)
            }
            // A resumed run's findings include the killed run's (adopted when it began).
            if base != nil || resuming != nil {
                (report.findings, report.stats.suppressed.baseline) = try carried(result)
            }
            let complete = tips != nil && result.issues.count == repeatable
            try store.finishRun(run, findings: report.findings.count, errors: report.issues.count, stats: result.stats,
                                complete: complete, tips: tips ?? [])
            return (report, true)
        } catch {
            context.err("keyshape: error: \(DatastoreAccess.failure(path, error))\n")
            return (report, false)
        }
    }
}
