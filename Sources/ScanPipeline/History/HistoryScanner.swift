import FileInputs
import Foundation
import GitHistory
import ScanCore
import MatchEngine

/// What part of a repository's history to scan.
public struct HistoryOptions: Sendable {
    /// Only commits not reachable from these (`--since REV`, repeatable).
    public var since: [String] = []
    /// `A..B` (commits reachable from B, not from A) or `B`; A may be the zero id (a new
    /// ref in a pre-receive hook: then commits on no existing ref).
    public var ranges: [String] = []
    /// Also every blob no scanned commit reaches (`--all-objects`), reported as kind `blob`.
    public var allObjects = false
    /// Commits whose history is left out, as `since` leaves it out, given as full ids of
    /// commits known to exist (an incremental run's base tips, checked by git already), so
    /// none is resolved one `git rev-parse` at a time: git.git has 1,006 ref tips.
    public var excludeCommits: [String] = []
    /// At most this many commits per batch (memory holds a few batches of changes).
    public var batchCommits = 1000
    /// Changed paths one commit may list before the scan fails closed there (a "git bomb";
    /// `CommitLog.defaultMaxChangesPerCommit`, `--max-commit-paths`).
    public var maxCommitPaths = CommitLog.defaultMaxChangesPerCommit

    public init() {}
}

/// Scans a repository's history: every unique blob once (findings cached per blob id),
/// then each finding attributed to every commit whose change makes that secret appear at
/// that path: present in the new blob, absent from each parent's blob at that path, and,
/// where the parent lacks the path, absent from what the commit deleted relative to that
/// parent (a rename; see `HistoryRun.attribute`). Never prints.
public final class HistoryScanner: @unchecked Sendable {
    public let ruleSet: RuleSet
    public let options: ScanOptions
    public let history: HistoryOptions
    public let progress = ScanProgress()
    /// Where blob scan records are kept between runs (the datastore's, set by the
    /// executable): blobs it holds for these rules are not read from git.
    public var blobStore: (any BlobScanStore)?
    /// Where the walk's position is kept as it goes, and a killed run's is taken up (the
    /// datastore's, set by the executable): commits it says were attributed are skipped.
    public var walkLog: (any CommitWalkLog)?
    /// Commits of the last scan skipped as attributed by the run it resumed (`walkLog`).
    public private(set) var resumedCommits = 0
    /// Gets the commits' findings batch by batch as they are attributed (not those of commit
    /// messages, tags and notes, nor unreachable blobs: those come with the result only).
    public var sink: (any FindingSink)?
    /// Blobs of the last scan whose findings came from `blobStore`, not from git.
    public private(set) var storedBlobs = 0
    /// How many of the last scan's issues are a property of blob bytes under these rules
    /// (`HistoryRun.repeatableIssues`); when that is all of them, a later run with the same
    /// rules that skips these commits may report them again as they were.
    public private(set) var repeatableIssues = 0
    /// The largest buffer the last scan held blob bytes in (tests of the memory bound).
    private(set) var largestBlobBuffer = 0

    public init(ruleSet: RuleSet, options: ScanOptions, history: HistoryOptions) {
        self.ruleSet = ruleSet
        self.options = options
        self.history = history
    }

    /// A problem with the request itself (bad revision): the scan does not start.
    public typealias RequestError = RevisionRequestError

    /// The repository opened and git already listing its commits: made without the rules,
    /// so a command can do it while the rules compile.
    public struct Input: @unchecked Sendable {
        let git: Git
        let log: Result<CommitLog, Error>
        let started: Date
    }

    /// Opens the repository and starts `git rev-list | git diff-tree`.
    /// - Throws: `GitError` when git is missing or the path is no repository, and
    ///   `RequestError` for a revision that names no commit. Everything that goes wrong
    ///   once scanning started becomes an issue in the result instead.
    public static func open(repository: String, history: HistoryOptions, gitOptions: Git.Options = Git.Options()) throws -> Input {
        let started = Date()
        let git = try Git(repository: repository, options: gitOptions)
        let selection = try HistoryScanner.selection(git, history)
        return Input(git: git, log: Result { try CommitLog(git: git, selection: selection, maxChangesPerCommit: history.maxCommitPaths) }, started: started)
    }

    public func scan(repository: String, gitOptions: Git.Options = Git.Options()) throws -> (result: ScanResult, notes: [String]) {
        scan(try HistoryScanner.open(repository: repository, history: history, gitOptions: gitOptions))
    }

    public func scan(_ input: Input) -> (result: ScanResult, notes: [String]) {
        let git = input.git
        var run = HistoryRun(scanner: self, git: git)
        run.notes += git.isShallow
            ? ["shallow repository: history before the shallow boundary is not present; the boundary commits' files are reported as added there"]
            : []
        if git.ignoredShallowEntries > 0 {
            let n = git.ignoredShallowEntries
            run.notes.append("the repository's shallow file lists \(n) commit\(n == 1 ? "" : "s") whose parents are present (a real shallow clone lacks them); \(n == 1 ? "that entry was" : "those entries were") ignored, so history is read as the objects say")
        }
        // Commit messages, annotated tags and notes, on their own thread (CommitTextScanner.swift).
        let texts = CommitTextScanner(scanner: self, git: git, log: try? input.log.get())
        texts.start()
        run.scanCommits(input.log)
        if history.allObjects { run.scanUnreachable() }
        texts.finish(into: &run)
        run.mergeDeletions.close()
        run.workers.close()
        largestBlobBuffer = run.workers.largestBuffer
        storedBlobs = run.storedBlobs
        resumedCommits = run.resumedCommits
        repeatableIssues = run.repeatableIssues
        var result = ScanResult(rules: ruleSet.ruleInfos)
        result.findings = run.findings.sorted()
        result.issues = run.issues.sorted()
        result.stats = run.stats
        result.stats.suppressed = run.builder.suppressed.counts
        result.suppressed = run.builder.suppressed.kept.sorted()
        result.stats.seconds = Date().timeIntervalSince(input.started)
        return (result, run.notes)
    }

    static func selection(_ git: Git, _ history: HistoryOptions) throws -> CommitSelection {
        var selection = try CommitSelection.parse(git, since: history.since, ranges: history.ranges, allObjects: history.allObjects)
        // Full hex ids only: nothing else (an option, a revision expression) reaches git here.
        let ids = history.excludeCommits.filter { ObjectID($0) != nil }
        if !ids.isEmpty {
            if history.allObjects { throw RevisionRequestError(message: "--all-objects scans the whole object store; it cannot leave commits out") }
            selection.exclude += ids
        }
        return selection
    }
}
