import FileInputs
import ObjectFiles
import ScanCore
import ScanRules

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

    func scan(_ entry: FileEntry) {
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
                // This chunk answers for its accepted bytes up to the resume point, if any.
                let resumeAt = pipeline.resumeAt
                let own = chunk.accept.lowerBound..<(resumeAt ?? chunk.accept.upperBound)
                if let resumeAt { reader.resume(at: chunk.fileOffset + resumeAt) }
                stats.bytes += own.count
                progress?.bytesDone.add(own.count, ordering: .relaxed)
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

    /// - Parameter chunkOffset: the file offset of the chunk the finding's range is in.
    private func record(_ f: BufferFinding, fileOffset chunkOffset: Int, entry: FileEntry) {
        let rule = pipeline.rules[f.ruleIndex]
        // From the path's raw bytes: two names differing only in bytes that are not UTF-8
        // are two places, each baselined on its own.
        let provenance = ProvenanceStep.apply(f.steps, to: .file(path: entry.pathBytes))
        let location = Location(f, provenance: provenance, offset: chunkOffset)
        if let finding = builder.build(rule: rule, location: location, secretHash: f.secretHash, suppression: f.suppression) {
            findings.append(finding)
        }
    }
}
