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
public enum IncrementalHistory {
    public struct Plan {
        /// The commits to exclude (with their ancestors), for `HistoryOptions.excludeCommits`.
        public var since: [String] = []
        public var base: Int64?
        /// The killed run whose walk this one takes over.
        public var resumes: Int64?
        /// Why this run is incremental or not, for a note.
        public var note: String?
    }

    /// What this run starts from, and whether it can build on the last run. Called with the
    /// recorder open (the rules hash is known) and before git lists commits.
    static func isHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x61...0x66).contains(c) || (0x41...0x46).contains(c) }

    /// The plan, and the killed run it resumes, if any: the latest history run of this
    /// repository after the last finished one, killed, with the same rules, building on the
    /// same complete run (or on none), every commit it started from still reachable. Its
    /// logged commits are skipped and its findings and errors become this run's
    /// (`DatastoreWalkLog`); the rest of its walk, and any commit added since, is walked.
    public static func plan(_ history: HistoryFlags, repo: String, recorder: DatastoreRecorder) -> Plan {
        var plan = basePlan(history, repo: repo, recorder: recorder)
        recorder.resuming = nil
        guard recorder.tips != nil, let git = try? Repository(path: repo),
              let killed = try? recorder.store.killedWalk(root: recorder.repository.root, rulesHash: recorder.rulesHash, before: recorder.run),
              killed.base == plan.base, !killed.tips.isEmpty,
              killed.tips.allSatisfy({ ($0.utf8.count == 40 || $0.utf8.count == 64) && $0.utf8.allSatisfy { Self.isHex($0) } }),
              git.stillReachable(killed.tips)
        else { return plan }
        recorder.resuming = killed.run
        plan.resumes = killed.run
        return plan
    }

    private static func basePlan(_ history: HistoryFlags, repo: String, recorder: DatastoreRecorder) -> Plan {
        // An explicit selection is not the whole history: it neither builds on nor serves as a base.
        guard !history.selectsCommits, !history.allObjects, let git = try? Repository(path: repo) else { return Plan() }
        guard let tips = git.startingCommits() else { return Plan() }
        recorder.tips = tips
        guard let last = try? recorder.store.latestHistoryRun(root: recorder.repository.root) else { return Plan() }
        let run = last.run
        // The datastore is a file anyone may hand over: a tip that is not a full commit id
        // (an option, a revision expression) never reaches git; the run is a full one.
        guard last.tips.allSatisfy({ ($0.utf8.count == 40 || $0.utf8.count == 64) && $0.utf8.allSatisfy { Self.isHex($0) } }) else {
            return Plan(note: "the datastore's last history run lists starting commits that are not commit ids: every commit is scanned again")
        }
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
        // Every tip left out as it is: `git merge-base --independent` to find the fewest took
        // 1.7 s of CPU on git.git's 1,006 tips (more than the rest of an incremental run), and
        // the ids need no resolving (`HistoryOptions.excludeCommits`); rev-list takes them all
        // in 0.02 s.
        return Plan(since: last.tips, base: run.id,
                    note: "incremental: only commits the datastore's last history run (run \(run.id), same rules) did not reach are read; its findings are carried forward")
    }
}
