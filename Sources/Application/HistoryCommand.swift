import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import CommandLineFlags

/// `keyshape history [REPO]`: every commit on any ref, the reflogs and stashes (or a range),
/// each unique blob scanned once, findings attributed to the commits that added them.
public enum HistoryCommand {
    public static func run(_ inv: Invocation, _ context: RunContext) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv.positionals, of: inv.command)
        var history = inv.history.options
        var inv = inv
        HookCommand.adoptBaseline(&inv, repo: repo)
        let (ruleSet, options, opened): (RuleSet, ScanOptions, Result<HistoryScanner.Input, Error>)
        var planNote: String?
        if inv.datastore.path != nil {
            // The datastore's last run decides which commits to walk (IncrementalHistory), so git
            // lists them once the rules, and their hash, are known.
            let (r, o) = try GitCommandSupport.prepare(inv, repo: repo, context: context)
            if let recorder = context.recorder {
                let plan = IncrementalHistory.plan(inv.history, repo: repo, recorder: recorder)
                if plan.base != nil { history.excludeCommits = plan.since }
                recorder.base = plan.base
                planNote = plan.note
            }
            let wanted = history
            (ruleSet, options, opened) = (r, o, Result { try HistoryScanner.open(repository: repo, history: wanted) })
        } else {
            // git starts listing commits while the rules compile.
            let wanted = history
            (ruleSet, options, opened) = try GitCommandSupport.prepare(inv, repo: repo, context: context, meanwhile: {
                try HistoryScanner.open(repository: repo, history: wanted)
            })
        }
        let input: HistoryScanner.Input
        do { input = try opened.get() } catch let e as HistoryScanner.RequestError {
            throw UsageError(message: e.message)
        } catch {
            throw GitCommandSupport.describe(error)
        }
        let scanner = HistoryScanner(ruleSet: ruleSet, options: options, history: history)
        context.recorder?.attach(to: scanner)
        let progress = context.progressLine(inv.report, scanner.progress, kind: .history)
        progress?.start()
        let outcome = scanner.scan(input)
        progress?.stop()
        var notes = (planNote.map { [$0] } ?? []) + outcome.notes
        if scanner.storedBlobs > 0 { notes.append(DatastoreRecorder.cacheNote(scanner.storedBlobs)) }
        if let killed = context.recorder?.resuming { notes.append(DatastoreRecorder.resumeNote(scanner.resumedCommits, killed: killed)) }
        return try GitCommandSupport.deliver(outcome.result, notes: notes, inv.report, command: inv.command, options, repo: repo, push: true, context: context)
    }
}

/// What history, staged and hook share: the repository argument, rules and options.
enum GitCommandSupport {
    /// The notes, the report and, as a hook (`--hook`), the closing line. A hook that lets
    /// the commit or push through prints nothing at all.
    static func deliver(_ result: ScanResult, notes: [String], _ report: ReportFlags, command: Invocation.Command, _ options: ScanOptions,
                        repo: String, push: Bool, context: RunContext) throws -> Int32 {
        let clean = result.findings.isEmpty && result.issues.isEmpty
        if !(report.hookMode && clean) {
            for note in notes { context.err("keyshape: note: \(note)\n") }
        }
        let status = try Report.deliver(result, report, command: command, options, roots: .repository(repo), context: context)
        if report.hookMode && status != 0 { context.err(HookCommand.stopLine(result, push: push) + "\n") }
        return status
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The one repository among `command`'s arguments (after the first `skipping`); default `.`.
    static func repository(_ arguments: [String], of command: Invocation.Command, skipping: Int = 0) throws -> String {
        let rest = Array(arguments.dropFirst(skipping))
        guard rest.count <= 1 else {
            throw UsageError(message: "`keyshape \(command.rawValue)` takes one repository, not \(rest.count) paths")
        }
        return rest.first ?? "."
    }

    static func prepare(_ inv: Invocation, repo: String, context: RunContext) throws -> (RuleSet, ScanOptions) {
        try ScanSetup.prepare(inv, roots: [repo], context: context)
    }

    /// `prepare`, with `meanwhile` (reading git) run on another thread as the rules load;
    /// a rule error is thrown first, `meanwhile`'s outcome is returned as it came.
    static func prepare<T>(_ inv: Invocation, repo: String, context: RunContext, meanwhile: @escaping @Sendable () throws -> T)
        throws -> (RuleSet, ScanOptions, Result<T, Error>) {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.value = Result { try meanwhile() }
            done.signal()
        }
        let prepared = Result { try prepare(inv, repo: repo, context: context) }
        done.wait()
        let (ruleSet, options) = try prepared.get()
        return (ruleSet, options, box.value!)
    }

    /// git missing, not a repository: one clear line (exit 2 in main).
    static func describe(_ error: Error) -> Error {
        if let line = Repository.describe(error) { return Failure(description: line) }
        return error
    }
}

/// A result handed from one thread to another (the semaphore orders the accesses).
private final class ResultBox<T>: @unchecked Sendable { var value: Result<T, Error>? }
