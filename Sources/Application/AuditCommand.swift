import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import CommandLineFlags

/// `keyshape audit [REPO] [--products PATH ...]`: the release gate in one step. The sources
/// (in a git repository, the files git tracks plus untracked files it does not ignore), the
/// whole history (reflogs and stashes included), and each build product, merged into one
/// report with one exit status. A summary line per part goes to stderr.
///
/// With `--since REV` or `--range A..B` (a pull request's commits, a push), the history part
/// is those commits alone, exactly as `history` takes them (an empty or all-zero lower bound:
/// what no remote-tracking ref reaches), and the working tree is not scanned as a part of its
/// own: every file the range added or changed is scanned in the commit that did it, and what
/// the range did not touch is what the base already had, which a scan of the base reports.
/// Build products are scanned as always.
public enum AuditCommand {
    public static func run(_ inv: Invocation, _ context: RunContext) throws -> Int32 {
        let repo = try GitCommandSupport.repository(inv.positionals, of: inv.command)
        let (ruleSet, options) = try GitCommandSupport.prepare(inv, repo: repo, context: context)
        var combined = ScanResult(rules: ruleSet.ruleInfos)
        let started = Date()

        // A folder with no repository in or above it (an unpacked release, a build tree) has no
        // history: that is said, and the exit status is the sources' and products'. A
        // repository that is there but cannot be read (git missing, a `.git` git cannot open,
        // a config it cannot parse) is an error: its history was asked for and not scanned.
        let git: Repository?
        var historyFailure: Error?
        do { git = try Repository(path: repo) } catch {
            git = nil
            if Repository.marker(above: repo) != nil { historyFailure = error }
        }

        let selecting = inv.history.selectsCommits
        if selecting && git == nil {
            let why = historyFailure.map { "\(GitCommandSupport.describe($0))" } ?? "no git repository is in or above \(repo)"
            throw UsageError(message: "--since and --range select commits, but \(why)")
        }

        // Sources.
        if selecting {
            partLine(inv.report, context, "keyshape audit: sources: the selected commits' changes stand for them (--since/--range)\n")
        } else {
            scanSources(inv.report, git: git, repo: repo, ruleSet: ruleSet, options: options, into: &combined, context: context)
        }

        // History.
        if git != nil {
            let history = HistoryScanner(ruleSet: ruleSet, options: options, history: inv.history.options)
            context.recorder?.attach(to: history)
            let historyProgress = startedProgress(inv.report, history.progress, .history, "history", context)
            do {
                let scanned = Result { try history.scan(repository: repo) }
                historyProgress?.stop()
                let outcome = try scanned.get()
                for note in outcome.notes { context.err("keyshape: note: \(note)\n") }
                merge(outcome.result, into: &combined)
                partLine(inv.report, context, "keyshape audit: history: \(outcome.result.findings.count) findings; \(outcome.result.stats.commits) commits, \(outcome.result.stats.blobs) blobs, \(megabytes(outcome.result.stats.bytes))\n")
            } catch let e as HistoryScanner.RequestError {
                // A revision that names no commit: the request was wrong, as in `history`.
                throw UsageError(message: e.message)
            } catch {
                combined.issues.append(ScanIssue(path: repo, message: "history not scanned: \(GitCommandSupport.describe(error))"))
            }
        } else if let historyFailure {
            combined.issues.append(ScanIssue(path: repo, message: "history not scanned: \(GitCommandSupport.describe(historyFailure))"))
            context.err("keyshape audit: history: not scanned (an error entry says why)\n")
        } else {
            partLine(inv.report, context, "keyshape audit: history: none (no git repository in or above this folder)\n")
        }

        // Build products: paths keep the product path as given, so reports say which build.
        for product in inv.products {
            let productScanner = Scanner(ruleSet: ruleSet, options: options)
            let productProgress = startedProgress(inv.report, productScanner.progress, .files, "products", context)
            let result = productScanner.scan(paths: [product], keepRootInPaths: true).result
            productProgress?.stop()
            merge(result, into: &combined)
            partLine(inv.report, context, "keyshape audit: products \(product): \(result.findings.count) findings; \(result.stats.files) files (\(result.stats.binaries) binary), \(megabytes(result.stats.bytes))\n")
        }

        combined.findings.sort()
        combined.issues.sort()
        combined.suppressed.sort()
        combined.stats.seconds = Date().timeIntervalSince(started)
        return try Report.deliver(combined, inv.report, command: inv.command, options, roots: .audit(repository: repo, products: inv.products), context: context)
    }

    /// The working tree: in a git work tree the files git tracks plus the untracked ones it
    /// does not ignore; elsewhere (or when git cannot list them) the folder.
    static func scanSources(_ report: ReportFlags, git: Repository?, repo: String, ruleSet: RuleSet, options: ScanOptions,
                            into combined: inout ScanResult, context: RunContext) {
        let sources: (result: ScanResult, notes: [ScanIssue])
        var listed: [[UInt8]]?
        if let git, !git.isBare {
            do { listed = try git.workTreeFiles() } catch {
                // Still scanned, as a folder (ignored files included); the error makes it exit 2.
                combined.issues.append(ScanIssue(path: repo, message: "files git tracks not listed: \(GitCommandSupport.describe(error)); the folder was scanned instead"))
            }
        }
        let sourceScanner = Scanner(ruleSet: ruleSet, options: options)
        let sourceProgress = startedProgress(report, sourceScanner.progress, .files, "sources", context)
        if let git, let listed {
            sources = sourceScanner.scan(relativePaths: listed, under: git.root)
        } else {
            sources = sourceScanner.scan(paths: [repo])
        }
        sourceProgress?.stop()
        for note in sources.notes { context.err("keyshape: note: \(note)\n") }
        merge(sources.result, into: &combined)
        partLine(report, context, "keyshape audit: sources: \(sources.result.findings.count) findings; \(sources.result.stats.files) files, \(megabytes(sources.result.stats.bytes))\n")
    }

    /// A started progress line for one part, when progress is shown (`--progress`, or by
    /// default when stderr is a terminal); each part has its own, named by its label.
    static func startedProgress(_ report: ReportFlags, _ progress: ScanProgress, _ kind: ProgressLine.Kind, _ label: String,
                                _ context: RunContext) -> ProgressLine? {
        let line = context.progressLine(report, progress, kind: kind, label: label)
        line?.start()
        return line
    }

    /// A part's counts on stderr; `--quiet` leaves them out with the summary.
    static func partLine(_ report: ReportFlags, _ context: RunContext, _ text: String) {
        if !report.quiet { context.err(text) }
    }

    static func merge(_ part: ScanResult, into combined: inout ScanResult) {
        combined.findings += part.findings
        combined.issues += part.issues
        combined.stats.add(part.stats)
        combined.suppressed += part.suppressed
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
