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
        let (ruleSet, options) = try GitCommandSupport.prepare(inv, repo: repo)
        var history = HistoryOptions()
        history.since = inv.since
        history.ranges = inv.ranges
        history.allObjects = inv.allObjects
        let scanner = HistoryScanner(ruleSet: ruleSet, options: options, history: history)
        let progress = (inv.progress ?? Terminal.stderrIsTerminal) ? ObjectProgressLine(scanner.progress) : nil
        progress?.start()
        let outcome: (result: ScanResult, notes: [String])
        do {
            outcome = try scanner.scan(repository: repo)
        } catch let e as HistoryScanner.RequestError {
            progress?.stop()
            throw UsageError(message: e.message)
        } catch {
            progress?.stop()
            throw GitCommandSupport.describe(error)
        }
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
        let rules = try RuleSources.load(inv)
        let config = try ConfigFile.load(explicit: inv.config, roots: [repo])
        for w in rules.warnings + config.warnings { Terminal.err("keyshape: warning: \(w)\n") }
        let (ruleSet, _) = RuleSet.combining(rules.files, extraAllowlists: config.allowlists)
        var options = ScanOptions(jobs: inv.jobs ?? ScanOptions.coreCount)
        options.maxFileSize = inv.maxFileSize ?? config.maxFileSize ?? options.maxFileSize
        options.minStringLength = inv.minStringLength ?? config.minStringLength ?? options.minStringLength
        options.hashKey = ProcessInfo.processInfo.environment["KEYSHAPE_HASH_KEY"] ?? config.hashKey ?? ""
        if let baseline = inv.baseline { options.baseline = try ScanCommand.readBaseline(baseline) }
        return (ruleSet, options)
    }

    /// git missing, not a repository: one clear line (exit 2 in main).
    static func describe(_ error: Error) -> Error {
        if let g = error as? GitError { return Failure(description: g.description) }
        return error
    }
}

/// `objects done/known, MB, MB/s` on stderr while a history scan runs: counts only, never a
/// path or an object name.
final class ObjectProgressLine: @unchecked Sendable {
    private let progress: ScanProgress
    private let started = Date()
    private let done = NSCondition()
    private var finished = false

    init(_ progress: ScanProgress) { self.progress = progress }

    func start() {
        Thread.detachNewThread { [self] in
            done.lock()
            while !finished {
                _ = done.wait(until: Date().addingTimeInterval(0.25))
                if finished { break }
                let objects = progress.filesDone.load(ordering: .relaxed)
                let total = progress.filesTotal.load(ordering: .relaxed)
                let mb = Double(progress.bytesDone.load(ordering: .relaxed)) / 1_000_000
                let rate = mb / max(0.001, Date().timeIntervalSince(started))
                Terminal.err(String(format: "\r\u{1B}[Kkeyshape: %d/%d objects, %.1f MB, %.0f MB/s", objects, total, mb, rate))
            }
            done.unlock()
        }
    }

    func stop() {
        done.lock()
        finished = true
        done.signal()
        done.unlock()
        Terminal.err("\r\u{1B}[K")
    }
}
