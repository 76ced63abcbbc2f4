import Foundation
import FileInputs
import ScanCore
import MatchEngine
import Synchronization

/// Scans folders and files: lists them, shares them out to worker threads, and gathers
/// findings, issues and counters into one sorted result. Never prints.
public final class Scanner: @unchecked Sendable {
    public let ruleSet: RuleSet
    public let options: ScanOptions
    public let progress = ScanProgress()
    /// Receives each file's reported findings, in position order, as soon as that file is
    /// scanned; one call at a time, files in the order their scans finish. The result is
    /// still sorted as a whole at the end.
    public var sink: (any FindingSink)?

    /// A closure as the sink (streamed text output).
    public var onFileFindings: (@Sendable ([Finding]) -> Void)? {
        get { (sink as? ClosureFindingSink)?.body }
        set { sink = newValue.map(ClosureFindingSink.init) }
    }

    /// Set by `stop()`: workers take no further file (a streamed report whose reader went
    /// away, `scan . | head -1`, need not wait for the rest of the tree).
    private let stopRequested = Atomic<Bool>(false)

    /// Files being scanned finish, no other is started; safe from any thread, including
    /// from `onFileFindings`. The result then holds only what was scanned.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Whether `stop()` was called, so the caller can say the scan did not cover everything.
    public var stopped: Bool { stopRequested.load(ordering: .relaxed) }

    public init(ruleSet: RuleSet, options: ScanOptions) {
        self.ruleSet = ruleSet
        self.options = options
    }

    /// - Parameter keepRootInPaths: report `root/relative` paths (see FileWalker.Options).
    public func scan(paths: [String], keepRootInPaths: Bool = false) -> (result: ScanResult, notes: [ScanIssue]) {
        var walkerOptions = FileWalker.Options()
        walkerOptions.followSymlinks = options.followSymlinks
        walkerOptions.keepRootInPaths = keepRootInPaths
        let listing = FileWalker(options: walkerOptions).walk(paths)
        return scan(listing)
    }

    /// Scans a list made elsewhere (e.g. the files git tracks), with its own display paths.
    public func scan(_ listing: FileWalker.Result) -> (result: ScanResult, notes: [ScanIssue]) {
        let started = Date()
        // Files a path-only allowlist of the user's covers cannot yield findings: not read, not
        // parsed. A repository's are read, so what its allowlist hides is counted.
        let scratch = ruleSet.makeScratch()
        let wanted = listing.files.filter { !self.ruleSet.allowsWholeFile($0.displayPath, scratch: scratch) }
        progress.filesTotal.store(wanted.count, ordering: .relaxed)
        progress.bytesTotal.store(wanted.reduce(0) { $0 + max(0, $1.size) }, ordering: .relaxed)

        // Largest files first, so one big file does not start last and run alone.
        let files = wanted.sorted { $0.size > $1.size }
        let workers = max(1, min(options.jobs, files.count))
        let next = NSLock()
        var cursor = 0
        let results = WorkerResults(count: workers)
        let ruleSet = self.ruleSet, options = self.options, progress = self.progress
        let hashes = SecretHashMemo(options: options)
        let sink = self.sink, sinkLock = NSLock()

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let scanner = FileScanner(ruleSet: ruleSet, options: options, progress: progress, hashes: hashes)
            while true {
                next.lock()
                let index = cursor
                cursor += 1
                next.unlock()
                guard index < files.count, !self.stopped else { break }
                let before = scanner.findings.count
                scanner.scan(files[index])
                if let sink, scanner.findings.count > before {
                    let new = scanner.findings[before...].sorted()
                    sinkLock.lock()
                    sink.receive(new)
                    sinkLock.unlock()
                }
                progress.filesDone.add(1, ordering: .relaxed)
            }
            var stats = scanner.stats
            stats.suppressed = scanner.suppressed.counts
            results.store(worker, findings: scanner.findings, issues: scanner.issues, stats: stats, suppressed: scanner.suppressed.kept)
        }

        var result = ScanResult(rules: ruleSet.ruleInfos)
        // The walker's error entries name paths too: vetted as the scanned files' are.
        let names = NameVetting(ruleSet: ruleSet)
        result.issues = listing.issues.map { ScanIssue(path: String(decoding: names.vet(Array($0.path.utf8)), as: UTF8.self), message: $0.message) }
        for w in 0..<workers {
            result.findings += results.findings[w]
            result.issues += results.issues[w]
            result.stats.add(results.stats[w])
            result.suppressed += results.suppressed[w]
        }
        result.stats.allowlistedFiles = listing.files.count - wanted.count
        result.findings.sort()
        result.suppressed.sort()
        result.issues.sort()
        result.stats.seconds = Date().timeIntervalSince(started)
        // Files an allowlist kept from being read are counted in stats.allowlistedFiles (the
        // summary says so), not left to a note.
        return (result, listing.notes)
    }
}

/// Per-worker slots; each worker writes only its own index.
final class WorkerResults: @unchecked Sendable {
    var findings: [[Finding]]
    var issues: [[ScanIssue]]
    var stats: [ScanStats]
    var suppressed: [[SuppressedFinding]]
    let lock = NSLock()

    init(count: Int) {
        findings = Array(repeating: [], count: count)
        issues = Array(repeating: [], count: count)
        stats = Array(repeating: ScanStats(), count: count)
        suppressed = Array(repeating: [], count: count)
    }

    func store(_ worker: Int, findings f: [Finding], issues i: [ScanIssue], stats s: ScanStats, suppressed k: [SuppressedFinding]) {
        lock.lock(); defer { lock.unlock() }
        suppressed[worker] = k
        findings[worker] = f
        issues[worker] = i
        stats[worker] = s
    }
}
