import Datastore
import Foundation
import ScanCore
import ScanPipeline

/// `scan|history|audit --datastore DB`: the run is recorded as it starts (so a killed run
/// shows as unfinished), its findings and errors when it ends, each batch in its own
/// transaction. Fingerprints triaged as anything but open become the run's baseline.
///
/// One per process: the command that opened it is the only run this process makes.
final class DatastoreRecorder {
    nonisolated(unsafe) static var current: DatastoreRecorder?

    let store: Datastore
    let path: String
    let run: Int64
    let rulesHash: String
    let repository: RepositoryRef
    /// history: the run reads the whole history, and started from these commits (ref tips
    /// and reflog entries); recorded when it finishes without error, for the next run.
    var tips: [String]?
    /// history: an incremental run on top of this earlier complete run, whose findings are
    /// carried forward into this one's.
    var base: Int64?
    /// scan: the sink that records findings as they are reported (`streaming(into:)`).
    private var sink: DatastoreSink?

    /// A sink for the scanner that records each batch as it fills, then hands the findings
    /// on to `next`. The findings it recorded are not recorded again at the end.
    func streaming(into next: (any FindingSink)?) -> any FindingSink {
        let s = DatastoreSink(store: store, run: run, next: next)
        sink = s
        return s
    }

    /// The run's baseline: `--baseline` and the datastore's settled fingerprints.
    var baseline: Set<String> = []
    /// `--include-suppressed` was not given: the findings the triage baseline suppressed are
    /// recorded (they are still there), then left out of the report.
    let dropSuppressedFromReport: Bool

    private init(store: Datastore, path: String, run: Int64, rulesHash: String, repository: RepositoryRef, dropSuppressedFromReport: Bool) {
        self.store = store
        self.path = path
        self.run = run
        self.rulesHash = rulesHash
        self.repository = repository
        self.dropSuppressedFromReport = dropSuppressedFromReport
    }

    /// Opens the datastore (refusing a file keyshape did not write, before any scanning),
    /// adds its settled fingerprints to the baseline and records the run's start.
    static func start(_ inv: Invocation, roots: [String], options: inout ScanOptions) throws {
        guard recordsRuns(inv.command), let path = inv.datastore else { return }
        let store = try DatastoreAccess.open(path, create: true)
        do {
            options.baseline.formUnion(try store.settledFingerprints())
            options.keepSuppressed = true
            let repository = self.repository(inv, roots: roots, store: store)
            let hash = RulesIdentity.hash(inv, options: options)
            let run = try store.beginRun(RunStart(
                command: inv.command.rawValue, arguments: ArgumentParser.flagNames(Array(CommandLine.arguments.dropFirst())),
                keyshapeVersion: KeyshapeVersion.current, rulePack: BuiltinRules.packVersion,
                rulesHash: hash, repository: repository))
            current = DatastoreRecorder(store: store, path: path, run: run, rulesHash: hash, repository: repository,
                                        dropSuppressedFromReport: !inv.includeSuppressed)
            current?.baseline = options.baseline
        } catch {
            throw DatastoreAccess.failure(path, error)
        }
    }

    static func recordsRuns(_ command: Invocation.Command) -> Bool { FlagTable.recording.contains(command) }

    /// An incremental run's report: every finding this run now counts as seen (its own and
    /// those carried forward), less the ones the baseline (triage, `--baseline`) settles.
    private func carried(_ result: ScanResult) throws -> (findings: [Finding], baselined: Int) {
        let seen = try store.findings(FindingFilter(lastSeenRun: run)).map(\.finding)
        var findings: [Finding] = [], baselined = 0
        for f in seen {
            if baseline.contains(f.fingerprint) { baselined += 1 } else { findings.append(f) }
        }
        return (findings.sorted(), baselined)
    }

    /// history and audit: the repository's work tree root (its git identity when git can say);
    /// scan: the scanned folder (the current folder for several arguments or a file).
    static func repository(_ inv: Invocation, roots: [String], store: Datastore) -> RepositoryRef {
        switch inv.command {
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
    func finish(_ result: ScanResult) -> (report: ScanResult, recorded: Bool) {
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
            try store.record(result.issues, run: run)
            if let base {
                // What the earlier runs found in the commits this one did not walk: with this
                // run's own, the findings a full run gives.
                try store.carryForward(from: base, to: run)
                (report.findings, report.stats.suppressed.baseline) = try carried(result)
            }
            let complete = tips != nil && result.issues.isEmpty
            try store.finishRun(run, findings: report.findings.count, errors: result.issues.count, stats: result.stats,
                                complete: complete, tips: tips ?? [])
            return (report, true)
        } catch {
            Terminal.err("keyshape: error: \(DatastoreAccess.failure(path, error))\n")
            return (report, false)
        }
    }
}
