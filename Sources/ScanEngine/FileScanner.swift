import FileInputs
import ObjectFiles
import ScanCore
import ScanRules

/// One worker's view of a folder scan: reads each file it takes in bounded chunks and
/// hands them to its BufferScanner.
final class FileScanner {
    let scanner: BufferScanner
    let reader: ChunkReader
    let options: ScanOptions
    let progress: ScanProgress?

    private var decoded: [UInt8] = []
    private var runs: [UTF16Runs.Run] = []

    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var stats = ScanStats()
    var suppressed: SuppressionTally

    init(ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress? = nil, hashes: SecretHashMemo? = nil) {
        scanner = BufferScanner(ruleSet: ruleSet, options: options, hashes: hashes)
        reader = ChunkReader(chunkSize: options.chunkSize, overlap: min(64 << 10, options.chunkSize / 4))
        self.options = options
        self.progress = progress
        suppressed = SuppressionTally(keep: options.keepSuppressed)
    }

    /// Test seam: runs once per binary file after its first chunk was read and before its
    /// object map is made, so a test can swap the file's name for a FIFO right there.
    var beforeLayout: ((FileEntry) -> Void)?

    func scan(_ entry: FileEntry) {
        reportPathOnlyRules(entry)
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
                let id = self.scanner.rules[failure.ruleIndex].id
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
                scanner.scan(chunk.bytes, isBinary: chunk.isBinary, context: context, accept: chunk.accept,
                             linesBefore: linesBefore, columnsBefore: columnsBefore, resumable: resumable,
                             onFinding: { f in
                    record(f, fileOffset: chunk.fileOffset + f.range.lowerBound, length: f.range.count,
                           binary: chunk.isBinary ? layout : nil, entry: entry)
                }, onFailure: onFailure)
                // This chunk answers for its accepted bytes up to the resume point, if any.
                let resumeAt = scanner.resumeAt
                let own = chunk.accept.lowerBound..<(resumeAt ?? chunk.accept.upperBound)
                if let resumeAt { reader.resume(at: chunk.fileOffset + resumeAt) }
                stats.bytes += own.count
                progress?.bytesDone.add(own.count, ordering: .relaxed)
                if chunk.isBinary, let layout {
                    scanUTF16(chunk, own: own, layout: layout, entry: entry, context: context, onFailure: onFailure)
                }
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

    /// Text that toolchains store as UTF-16LE (CFString literals, `__ustring`, resources):
    /// decoded to ASCII and matched like any other text, reported at its bytes in the file.
    private func scanUTF16(_ chunk: Chunk, own: Range<Int>, layout: BinaryLayout, entry: FileEntry, context: MatchContext,
                           onFailure: (RuleFailure) -> Void) {
        decoded.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        UTF16Runs.extract(chunk.bytes, baseOffset: chunk.fileOffset, minLength: options.minStringLength, into: &decoded, runs: &runs)
        guard !runs.isEmpty else { return }
        let runs = self.runs
        _ = decoded.withUnsafeBytes { buffer in
            scanner.scan(buffer, isBinary: false, context: context, onFinding: { f in
                // The run holding the secret's first decoded byte (runs are in decoded order).
                var lo = 0, hi = runs.count
                while lo < hi { let mid = (lo + hi) / 2; if runs[mid].decodedRange.upperBound <= f.range.lowerBound { lo = mid + 1 } else { hi = mid } }
                guard lo < runs.count, runs[lo].decodedRange.contains(f.range.lowerBound) else { return }
                let fileOffset = runs[lo].fileOffset(ofDecoded: f.range.lowerBound)
                // Only runs starting in this chunk's own bytes; the overlap belongs to the next.
                guard own.contains(runs[lo].fileOffset - chunk.fileOffset) else { return }
                record(f, fileOffset: fileOffset, length: 2 * f.range.count, binary: layout, entry: entry)
            }, onFailure: onFailure)
        }
    }

    private func record(_ f: BufferFinding, fileOffset absolute: Int, length: Int, binary layout: BinaryLayout?, entry: FileEntry) {
        let rule = scanner.rules[f.ruleIndex]
        var location: Location
        if let layout {
            location = Location(kind: .binary, path: entry.displayPath, byteOffset: absolute, byteLength: length)
            layout.describe(absolute, into: &location)
        } else {
            location = Location(kind: .file, path: entry.displayPath, byteOffset: absolute, byteLength: length)
            location.line = f.line
            location.column = f.column
            location.endLine = f.endLine
            location.endColumn = f.endColumn
        }
        // From the path's raw bytes: two names differing only in bytes that are not UTF-8
        // are two places, each baselined on its own.
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, pathBytes: entry.pathBytes, section: location.section, secretHash: f.secretHash)
        let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: f.secretHash, location: location) }
        if let kind = f.suppression { suppressed.add(kind, finding); return }
        if options.baseline.contains(fingerprint) { suppressed.add(.baseline, finding); return }
        findings.append(finding())
    }
}
