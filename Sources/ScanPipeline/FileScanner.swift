import Archives
import FileInputs
import ObjectFiles
import ScanCore
import MatchEngine

/// One worker's view of a folder scan: reads each file it takes in bounded chunks and
/// hands them to its BufferPipeline.
final class FileScanner {
    let pipeline: BufferPipeline
    let reader: ChunkReader
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
        pipeline = BufferPipeline(ruleSet: ruleSet, options: options, hashes: hashes)
        reader = ChunkReader(chunkSize: options.chunkSize, overlap: min(64 << 10, options.chunkSize / 4))
        self.options = options
        self.progress = progress
        builder = FindingBuilder(options: options)
    }

    /// Test seam: runs once per binary file after its first chunk was read and before its
    /// object map is made, so a test can swap the file's name for a FIFO right there.
    var beforeLayout: ((FileEntry) -> Void)?

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
        var linesBefore = 0
        // Columns of the line the next chunk starts in that lie before it (a line longer
        // than the overlap crosses chunk boundaries), and where that chunk should start.
        var columnsBefore = 0
        var nextStart = 0
        var failedRules = Set<[Int]>()
        var binary = false
        var layout: BinaryLayout? = nil
        let context = MatchContext(path: entry.displayPath)
        let onFailure = { (failure: RuleFailure) in
            if failedRules.insert(failure.key).inserted {
                let id = self.pipeline.rules[failure.ruleIndex].id
                self.issues.append(ScanIssue(path: entry.displayPath, message: failure.describe(ruleId: id, unit: "file")))
            }
        }
        do {
            try reader.read(entry, limit: options.maxFileSize) { chunk in
                if chunk.fileOffset == 0, options.maxArchiveDepth > 0, let kind = archiveKind(chunk) {
                    scanArchive(fileDescriptor: chunk.fileDescriptor, entry: entry)
                    // An archive from its first byte is its members. A zip found only by its
                    // end record (a self-extractor) is read as bytes too: the stub in front
                    // is the file's own content.
                    if kind != .zip || ArchiveKind.sniff(head: chunk.bytes, tail: nil, totalSize: nil) == .zip {
                        binary = true
                        reader.stop()
                        return
                    }
                }
                binary = chunk.isBinary
                if chunk.isBinary && layout == nil {
                    beforeLayout?(entry)
                    // Known object formats are told apart by magic number, never by name.
                    let (loaded, problems) = BinaryLayout.load(fileDescriptor: chunk.fileDescriptor, firstBytes: chunk.bytes)
                    layout = loaded
                    for problem in problems { issues.append(ScanIssue(path: entry.displayPath, message: problem)) }
                }
                // Bytes skipped as a hole are NULs: a column each, no newline.
                if chunk.fileOffset > nextStart { columnsBefore += chunk.fileOffset - nextStart }
                // More bytes follow in the file: a match that runs on past this buffer's end
                // may be longer than the overlap, so one starting after the buffer's first
                // half is read again with the next chunk, starting there (at least half a
                // chunk of progress per read, so at most twice the reading); one starting
                // earlier is longer than half a chunk (4 MiB) and an error entry.
                let resumable = chunk.accept.upperBound < chunk.bytes.count
                    ? max(chunk.accept.lowerBound, reader.chunkSize / 2 + reader.rereadContext)..<chunk.accept.upperBound : nil
                pipeline.scan(part: chunk.bytes, layout: chunk.isBinary ? layout : nil, baseOffset: chunk.fileOffset, context: context,
                              accept: chunk.accept, linesBefore: linesBefore, columnsBefore: columnsBefore, resumable: resumable,
                              onFinding: { f in record(f, fileOffset: chunk.fileOffset, entry: entry) }, onFailure: onFailure)
                for problem in pipeline.transformProblems where !issues.contains(where: { $0.path == entry.displayPath && $0.message == problem }) {
                    issues.append(ScanIssue(path: entry.displayPath, message: problem))
                }
                // This chunk answers for its accepted bytes up to the resume point, if any.
                let resumeAt = pipeline.resumeAt
                let own = chunk.accept.lowerBound..<(resumeAt ?? chunk.accept.upperBound)
                if let resumeAt { reader.resume(at: chunk.fileOffset + resumeAt) }
                stats.bytes += own.count
                progress?.bytesDone.add(own.count, ordering: .relaxed)
                countInput(own.count, size: entry.size)
                if !chunk.isBinary && !chunk.isLast {
                    // Where the next chunk's buffer starts: the end of this one's accepted
                    // bytes, or the re-read context before the resume point.
                    let end = resumeAt.map { $0 - reader.rereadContext } ?? chunk.accept.upperBound
                    let head = UnsafeRawBufferPointer(rebasing: chunk.bytes[0..<end])
                    linesBefore += TextPosition.countNewlines(head)
                    columnsBefore = TextPosition.columns(before: end, in: chunk.bytes, carried: columnsBefore)
                    nextStart = chunk.fileOffset + end
                }
            }
            stats.files += 1
            if binary { stats.binaries += 1 }
        } catch let error as ChunkReader.ReadError {
            issues.append(ScanIssue(path: entry.displayPath, message: error.message))
        } catch {
            issues.append(ScanIssue(path: entry.displayPath, message: "read failed"))
        }
    }

    /// Counts `count` more of a file's bytes as read, never past its listed size (a file that
    /// grew while it was read still counts as its listed size).
    private func countInput(_ count: Int, size: Int) {
        let add = min(count, max(0, size - inputCounted))
        guard add > 0 else { return }
        inputCounted += add
        progress?.inputBytesDone.add(add, ordering: .relaxed)
    }

    /// The archive a file's first chunk shows: by its magic number, or for a binary file also
    /// by a zip end record at the end (a self-extractor). Text files are not read at the end:
    /// that would cost every source file a second read for a case binaries hold.
    private func archiveKind(_ chunk: Chunk) -> ArchiveKind? {
        if let kind = ArchiveKind.sniff(head: chunk.bytes, tail: nil, totalSize: nil) { return kind }
        return chunk.isBinary ? ArchiveKind.sniff(fileDescriptor: chunk.fileDescriptor) : nil
    }

    /// The hook for archives found by content: every member through the same pipeline
    /// (`ArchiveMemberScan`), its findings at `path!member…`, each archive problem an error
    /// entry at the member chain.
    private func scanArchive(fileDescriptor fd: Int32, entry: FileEntry) {
        let archives = ArchiveMemberScan(pipeline: pipeline, options: options)
        let outcome = archives.scan(.fileDescriptor(fd), contextPath: entry.displayPath, onFinding: { f in
            record(f, fileOffset: 0, entry: entry)
        }, onFailure: { failure, members in
            let id = pipeline.rules[failure.ruleIndex].id
            issues.append(ScanIssue(path: ArchiveMemberScan.path(entry.displayPath, members), message: failure.describe(ruleId: id, unit: "member")))
        }, onProblem: { members, message in
            issues.append(ScanIssue(path: ArchiveMemberScan.path(entry.displayPath, members), message: message))
        })
        stats.bytes += outcome.bytes
        progress?.bytesDone.add(outcome.bytes, ordering: .relaxed)
    }

    /// - Parameter chunkOffset: the file offset of the chunk the finding's range is in.
    private func record(_ f: BufferFinding, fileOffset chunkOffset: Int, entry: FileEntry) {
        let rule = pipeline.rules[f.ruleIndex]
        // From the path's raw bytes: two names differing only in bytes that are not UTF-8
        // are two places, each baselined on its own.
        let provenance = ProvenanceStep.apply(f.steps, to: .file(path: entry.pathBytes))
        let location = Location(f, provenance: provenance, offset: chunkOffset)
        if let finding = builder.build(rule: rule, location: location, secretHash: f.secretHash, suppression: f.suppression, checksum: f.checksum, confidence: f.confidence, provider: f.provider,
                                          tags: f.tags) {
            findings.append(finding)
        }
    }
}
