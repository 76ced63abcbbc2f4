import Datastore
import Foundation
import GitHistory
import ScanEngine

/// `history --datastore DB`: a run that builds on the last one. When the datastore's latest
/// history run of this repository read the whole history with the same rules (same
/// `RulesIdentity`) and every commit it started from is still reachable, this run walks only
/// the commits those do not reach (as `--since` them) and carries the earlier findings
/// forward: the report is what a full run gives, for the cost of the new commits.
///
/// Anything else (the first run, other rules, a force-push or a deleted branch that dropped
/// a commit the last run started from, `--since`/`--range`/`--all-objects`, an earlier run
/// that had errors) is a full run. A full run that finishes without errors is recorded as
/// complete, with the commits it started from, for the next one.
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
        guard inv.since.isEmpty, inv.ranges.isEmpty, !inv.allObjects, let git = try? Git(repository: repo) else { return Plan() }
        guard let tips = startingCommits(git) else { return Plan() }
        recorder.tips = tips
        guard let last = try? recorder.store.latestHistoryRun(root: recorder.repository.root) else { return Plan() }
        let run = last.run
        guard run.command == "history", run.complete, run.errors == 0, run.rulesHash == recorder.rulesHash, !last.tips.isEmpty else {
            return Plan(note: run.rulesHash != recorder.rulesHash ? "the rules changed since the datastore's last history run: every commit is scanned again" : nil)
        }
        // Every commit the last run started from must still be reachable from a ref or a
        // reflog entry, or a full run would no longer report what it found there.
        guard let dropped = try? git.tryOutput(["rev-list", "--max-count=1"] + last.tips + ["--not", "--all", "--reflog"]),
              dropped.status == 0, dropped.stdout.isEmpty else {
            return Plan(note: "commits the datastore's last history run started from are no longer on any ref: every commit is scanned again")
        }
        // The fewest commits that exclude the same ancestors (each is one rev-parse when resolved).
        var since = last.tips
        if let independent = try? git.tryOutput(["merge-base", "--independent"] + last.tips), independent.status == 0 {
            let ids = lines(independent.stdout)
            if !ids.isEmpty { since = ids }
        }
        return Plan(since: since, base: run.id,
                    note: "incremental: only commits the datastore's last history run (run \(run.id), same rules) did not reach are read; its findings are carried forward")
    }

    /// Every ref tip and reflog entry (the commits a full history run starts from), sorted;
    /// nil when git cannot list them (the run is then not a base for the next).
    static func startingCommits(_ git: Git) -> [String]? {
        guard let r = try? git.tryOutput(["rev-list", "--no-walk", "--all", "--reflog"]), r.status == 0 else { return nil }
        return Array(Set(lines(r.stdout))).sorted()
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { $0.count >= 40 && $0.allSatisfy(\.isHexDigit) }
    }
}
