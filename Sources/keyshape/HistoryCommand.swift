import Foundation
import GitHistory
import ScanCore
import ScanEngine
import ScanReport
import ScanRules

/// `keyshape history [REPO]`: every commit on any ref, the reflogs and stashes (or a range),
/// each unique blob scanned once, findings attributed to the commits that added them.
enum HistoryCommand {
    static func run(_ inv: Invocation) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv)
        var history = HistoryOptions()
        history.since = inv.since
        history.ranges = inv.ranges
        history.allObjects = inv.allObjects
        // git starts listing commits while the rules compile.
        final class Pending: @unchecked Sendable { var input: Result<HistoryScanner.Input, Error>? }
        let pending = Pending()
        let opened = DispatchSemaphore(value: 0)
        let wanted = history
        Thread.detachNewThread {
            pending.input = Result { try HistoryScanner.open(repository: repo, history: wanted) }
            opened.signal()
        }
        let prepared = Result { try GitCommandSupport.prepare(inv, repo: repo) }
        opened.wait()
        let (ruleSet, options) = try prepared.get()
        let input: HistoryScanner.Input
        do { input = try pending.input!.get() } catch let e as HistoryScanner.RequestError {
            throw UsageError(message: e.message)
        } catch {
            throw GitCommandSupport.describe(error)
        }
        let scanner = HistoryScanner(ruleSet: ruleSet, options: options, history: history)
        let progress = (inv.progress ?? Terminal.stderrIsTerminal) ? ProgressLine(scanner.progress, unit: "objects") : nil
        progress?.start()
        let outcome = scanner.scan(input)
        progress?.stop()
        for note in outcome.notes { Terminal.err("keyshape: note: \(note)\n") }
        return try Report.deliver(outcome.result, inv)
    }
}

/// What history, staged and hook share: the repository argument, rules and options.
enum GitCommandSupport {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func repository(_ inv: Invocation, skipping: Int = 0) throws -> String {
        let rest = Array(inv.positionals.dropFirst(skipping))
        guard rest.count <= 1 else {
            throw UsageError(message: "`keyshape \(inv.command.rawValue)` takes one repository, not \(rest.count) paths")
        }
        return rest.first ?? "."
    }

    static func prepare(_ inv: Invocation, repo: String) throws -> (RuleSet, ScanOptions) {
        try ScanCommand.prepare(inv, roots: [repo])
    }

    /// git missing, not a repository: one clear line (exit 2 in main).
    static func describe(_ error: Error) -> Error {
        if let g = error as? GitError { return Failure(description: g.description) }
        return error
    }
}
