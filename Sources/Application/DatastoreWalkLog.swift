import Datastore
import Foundation
import ScanCore
import ScanPipeline

/// `history --datastore`: the commit walk's position, kept in the datastore batch by batch
/// (`walk_commits`), so a run killed mid-way is resumed by the next one: that run skips the
/// commits this one attributed and takes over its findings and errors
/// (`Datastore.adoptWalk`), and still reports what an uninterrupted run reports.
///
/// Each batch is logged after its findings are written (the sink's pending findings first),
/// so a logged commit's findings are always in the datastore. Findings written after the
/// last logged batch belong to commits the resumed run attributes again: the same places,
/// the same rows. Called on the attributing thread only, the thread the sink writes from, so
/// it shares the recorder's connection.
final class DatastoreWalkLog: CommitWalkLog, @unchecked Sendable {
    private let store: Datastore
    private let run: Int64
    private let sink: DatastoreSink?
    let resumedCommits: [[UInt8]]
    /// The killed run's errors, now this run's (in the datastore already).
    let adoptedIssues: [ScanIssue]
    /// Every error recorded under this run so far (adopted and logged): not recorded again.
    private(set) var recorded: Set<ScanIssue>
    private(set) var failure: Error?

    init(store: Datastore, run: Int64, sink: DatastoreSink?, resumedCommits: [[UInt8]], adoptedIssues: [ScanIssue]) {
        self.store = store
        self.run = run
        self.sink = sink
        self.resumedCommits = resumedCommits
        self.adoptedIssues = adoptedIssues
        recorded = Set(adoptedIssues)
    }

    func attributed(_ commits: [[UInt8]], issues: [ScanIssue]) {
        guard failure == nil else { return }
        do {
            // A batch whose findings could not all be written is not logged: the next run
            // attributes it again.
            try sink?.write()
            let fresh = issues.filter { !recorded.contains($0) }
            try store.logWalk(run: run, commits: commits, issues: fresh)
            recorded.formUnion(fresh)
        } catch {
            failure = error
        }
    }
}
