import Application
import Datastore
import CommandLineFlags

/// The datastore's flags (contract: "The auditor's datastore"), part of the one flag table.
extension FlagTable {
    /// Commands that record into a datastore, and those that read or change one.
    static let recording = Invocation.Command.recording
    static let datastoreCommands: Set<Invocation.Command> = [.report, .summarize, .triage, .importReports, .sweep]

    static let datastoreFlags: [Flag] = [
        Flag(name: "--datastore", short: nil, value: "DB", help: "scan, history, audit: also record the run and its findings (never values) in the SQLite datastore DB, created if missing; sweep, report, summarize, triage, import: the datastore to use", commands: recording.union(datastoreCommands)) { inv, v in
            inv.datastore.path = v
        },
        Flag(name: "--status", short: nil, value: "STATUS,...", help: "report: only findings with these triage statuses (default open); triage: the status to set (\(TriageStatus.placeholder))", commands: [.report, .triage]) { inv, v in
            var statuses: [TriageStatus] = []
            for word in v.split(separator: ",", omittingEmptySubsequences: false) {
                guard let status = TriageStatus(rawValue: String(word)) else {
                    throw UsageError(message: "--status: expected \(TriageStatus.allCases.map(\.rawValue).joined(separator: ", ")) (comma-separated)")
                }
                if !statuses.contains(status) { statuses.append(status) }
            }
            inv.datastore.statuses = statuses
        },
        Flag(name: "--rule", short: nil, value: "ID", help: "report: only findings of this rule (repeatable)", commands: [.report]) { inv, v in
            inv.datastore.filterRules.append(v)
        },
        Flag(name: "--repo", short: nil, value: "NAME", help: "report: only findings in this repository (its name, root or root commit; repeatable); import: the repository the reports belong to (default: each report's file name without .jsonl)", commands: [.report, .importReports]) { inv, v in
            inv.datastore.filterRepos.append(v)
        },
        Flag(name: "--repos", short: nil, value: "FILE", help: "sweep: the repositories to sweep, one path a line (blank lines and # comments skipped), besides any given as arguments", commands: [.sweep]) { inv, v in
            inv.datastore.reposFile = v
        },
        Flag(name: "--note", short: nil, value: "TEXT", help: "triage: a note kept with the status (shown escaped wherever it is shown)", commands: [.triage]) { inv, v in
            inv.datastore.note = v
        },
    ]
}
