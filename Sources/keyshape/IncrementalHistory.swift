import Datastore
import Foundation
import ScanPipeline

/// `history --datastore DB`: a run that builds on the last one. When the datastore's latest
/// history run of this repository read the whole history with the same rules (same
/// `RulesIdentity`) and every commit it started from is still reachable, this run walks only
/// the commits those do not reach (as `--since` them) and carries the earlier findings
/// forward: the report is what a full run gives, for the cost of the new commits.
///
/// Anything else (the first run, other rules, a force-push or a deleted branch that dropped
/// a commit the last run started from, `--since`/`--range`/`--all-objects`, an earlier run
/// with an error that may not recur, such as git failing) is a full run. A full run is
/// recorded as complete, with the commits it started from, for the next one, when each of
/// its errors is one a blob's bytes give under these rules (a damaged archive in git.git's
/// test data, a blob over `--max-file-size`): the next run carries those errors forward
/// with the findings, so it exits 2 as a full run would. A full run is cheap after a first
/// one all the same: the per-blob cache (`DatastoreBlobStore`) spares it every blob read.
enum IncrementalHistory {
    struct Plan {
        /// The commits to exclude (with their ancestors), for `HistoryOptions.since`.
        var since: [String] = []
        var base: Int64?
        /// Why this run is incremental or not, for a note.
        var note: String?
    }

    /// What this run starts from, and whether it can build on the last run. Called with the
    /// recorder open (the rules hash is known) and before git lists commits.
    static func plan(_ inv: Invocation, repo: String, recorder: DatastoreRecorder) -> Plan {
        // An explicit selection is not the whole history: it neither builds on nor serves as a base.
        guard inv.since.isEmpty, inv.ranges.isEmpty, !inv.allObjects, let git = try? Repository(path: repo) else { return Plan() }
        guard let tips = git.startingCommits() else { return Plan() }
        recorder.tips = tips
        guard let last = try? recorder.store.latestHistoryRun(root: recorder.repository.root) else { return Plan() }
        let run = last.run
        // Complete: it read the whole history, and its errors (if any) are ones the blobs'
        // bytes give under these rules, carried forward into this run's report.
        guard run.command == "history", run.complete, run.rulesHash == recorder.rulesHash, !last.tips.isEmpty else {
            return Plan(note: run.rulesHash != recorder.rulesHash ? "the rules changed since the datastore's last history run: every commit is scanned again" : nil)
        }
        // Every commit the last run started from must still be reachable from a ref or a
        // reflog entry, or a full run would no longer report what it found there.
        guard git.stillReachable(last.tips) else {
            return Plan(note: "commits the datastore's last history run started from are no longer on any ref: every commit is scanned again")
        }
        // The fewest commits that exclude the same ancestors (each is one rev-parse when resolved).
        let since = git.independent(last.tips)
        return Plan(since: since, base: run.id,
                    note: "incremental: only commits the datastore's last history run (run \(run.id), same rules) did not reach are read; its findings are carried forward")
    }
}
