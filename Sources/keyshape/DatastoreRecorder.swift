import Datastore
import Foundation
import ScanCore
import ScanEngine

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
    /// `--include-suppressed` was not given: the findings the triage baseline suppressed are
    /// recorded (they are still there), then left out of the report.
    let dropSuppressedFromReport: Bool

    private init(store: Datastore, path: String, run: Int64, dropSuppressedFromReport: Bool) {
        self.store = store
        self.path = path
        self.run = run
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
            let repository = self.repository(inv, roots: roots)
            let run = try store.beginRun(RunStart(
                command: inv.command.rawValue, arguments: ArgumentParser.flagNames(Array(CommandLine.arguments.dropFirst())),
                keyshapeVersion: KeyshapeVersion.current, rulePack: BuiltinRules.packVersion,
                rulesHash: RulesIdentity.hash(inv, options: options), repository: repository))
            current = DatastoreRecorder(store: store, path: path, run: run, dropSuppressedFromReport: !inv.includeSuppressed)
        } catch {
            throw DatastoreAccess.failure(path, error)
        }
    }

    static func recordsRuns(_ command: Invocation.Command) -> Bool { FlagTable.recording.contains(command) }

    /// history and audit: the repository's work tree root (its git identity when git can say);
    /// scan: the scanned folder (the current folder for several arguments or a file).
    static func repository(_ inv: Invocation, roots: [String]) -> RepositoryRef {
        switch inv.command {
        case .history, .audit:
            let root = ArtifactRoots.repository(roots.first ?? ".").sourceRoot
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
            try store.record(result.findings + triaged, run: run)
            try store.record(result.issues, run: run)
            try store.finishRun(run, findings: result.findings.count, errors: result.issues.count, stats: result.stats)
            return (report, true)
        } catch {
            Terminal.err("keyshape: error: \(DatastoreAccess.failure(path, error))\n")
            return (report, false)
        }
    }
}
