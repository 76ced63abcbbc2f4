import Archives
import FileInputs
import ObjectFiles
import ScanCore
import MatchEngine

/// One worker's view of a folder scan: the producer of each file it takes (its path stage,
/// its size limit), which hands the file to the front (`InputFront`) and turns what comes
/// back into findings and error entries at the file's path.
final class FileScanner {
    let front: InputFront
    var pipeline: BufferPipeline { front.pipeline }
    let options: ScanOptions
    let progress: ScanProgress?

    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var stats = ScanStats()
    private var builder: FindingBuilder
    /// For the path-only rules' path patterns (one per worker, as the pipeline's).
    private lazy var pathScratch = pipeline.scanner.matcher.ruleSet.makeScratch()
    var suppressed: SuppressionTally { builder.suppressed }

    init(ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress? = nil, hashes: SecretHashMemo? = nil) {
        front = InputFront(pipeline: BufferPipeline(ruleSet: ruleSet, options: options, hashes: hashes))
        self.options = options
        self.progress = progress
        builder = FindingBuilder(options: options)
    }

    /// Test seam: runs once per binary file after its first chunk was read and before its
    /// object map is made, so a test can swap the file's name for a FIFO right there.
    var beforeLayout: (() -> Void)? {
        get { front.beforeLayout }
        set { front.beforeLayout = newValue }
    }

    /// This file's bytes counted in `ScanProgress.inputBytesDone` so far.
    private var inputCounted = 0

    func scan(_ listed: FileEntry) {
        inputCounted = 0
        // However the file ends (scanned, an archive, skipped, failed), it is done: the bar
        // reaches its size.
        defer { countInput(listed.size - inputCounted, size: listed.size) }
        // A name that holds a key is printed with the key withheld (`NameVetting`); the file is
        // still opened by its real path.
        var entry = listed
        let vetted = pipeline.names.vet(listed.pathBytes, once: true)
        if vetted != listed.pathBytes { entry = FileEntry(osPath: listed.osPath, pathBytes: vetted, size: listed.size) }
        // The path stage first: a path-only rule reports the file even when it cannot be read.
        findings += PathOnlyRules.findings(pipeline.scanner.matcher.ruleSet, provenance: .file(path: entry.pathBytes), size: entry.size,
                                           scratch: pathScratch, hash: { pipeline.scanner.secretHash($0) }, builder: &builder,
                                           onFailure: { failure in
            let id = self.pipeline.rules[failure.ruleIndex].id
            self.issues.append(ScanIssue(path: entry.displayPath, message: failure.describe(ruleId: id, unit: "file")))
        })
        if entry.size > options.maxFileSize {
            issues.append(ScanIssue(path: entry.displayPath,
                                    message: "file is \(entry.size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise --max-file-size)"))
            return
        }
        var failedRules = Set<[Int]>()
        let outcome = front.scan(.file(entry), path: entry.displayPath, sink: InputFront.Sink(onFinding: { f in
            self.record(f, entry: entry)
        }, onFailure: { failure, place in
            let id = self.pipeline.rules[failure.ruleIndex].id
            switch place {
            case .input:
                if failedRules.insert(failure.key).inserted {
                    self.issues.append(ScanIssue(path: entry.displayPath, message: failure.describe(ruleId: id, unit: "file")))
                }
            case .archive(let members):
                self.issues.append(ScanIssue(path: ArchiveMemberScan.path(entry.displayPath, members), message: failure.describe(ruleId: id, unit: "member")))
            }
        }, onProblem: { members, message in
            self.issues.append(ScanIssue(path: ArchiveMemberScan.path(entry.displayPath, members), message: message))
        }, onRead: { count in
            self.stats.bytes += count
            self.progress?.bytesDone.add(count, ordering: .relaxed)
            self.countInput(count, size: entry.size)
        }))
        // An archive's members and raw bytes count as scanned, not as the file's own reads.
        stats.bytes += outcome.archiveBytes
        progress?.bytesDone.add(outcome.archiveBytes, ordering: .relaxed)
        if let message = outcome.readError {
            issues.append(ScanIssue(path: entry.displayPath, message: message))
            return
        }
        stats.files += 1
        if outcome.binary { stats.binaries += 1 }
    }

    /// Counts `count` more of a file's bytes as read, never past its listed size (a file that
    /// grew while it was read still counts as its listed size).
    private func countInput(_ count: Int, size: Int) {
        let add = min(count, max(0, size - inputCounted))
        guard add > 0 else { return }
        inputCounted += add
        progress?.inputBytesDone.add(add, ordering: .relaxed)
    }

    /// - Parameter f: its range in the file's bytes (or its member's).
    private func record(_ f: BufferFinding, entry: FileEntry) {
        let rule = pipeline.rules[f.ruleIndex]
        // From the path's raw bytes: two names differing only in bytes that are not UTF-8
        // are two places, each baselined on its own.
        let provenance = ProvenanceStep.apply(f.steps, to: .file(path: entry.pathBytes))
        let location = Location(f, provenance: provenance)
        if let finding = builder.build(rule: rule, location: location, secretHash: f.secretHash, suppression: f.suppression, checksum: f.checksum, confidence: f.confidence, provider: f.provider,
                                          tags: f.tags) {
            findings.append(finding)
        }
    }
}
