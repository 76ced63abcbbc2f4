import FileInputs
import ScanCore
import ScanRules

/// One worker's view of a folder scan: reads each file it takes in bounded chunks and
/// hands them to its BufferScanner.
final class FileScanner {
    let scanner: BufferScanner
    let reader: ChunkReader
    let options: ScanOptions
    let progress: ScanProgress?

    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var stats = ScanStats()

    init(ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress? = nil) {
        scanner = BufferScanner(ruleSet: ruleSet, options: options)
        reader = ChunkReader(chunkSize: options.chunkSize, overlap: min(64 << 10, options.chunkSize / 4))
        self.options = options
        self.progress = progress
    }

    func scan(_ entry: FileEntry) {
        if entry.size > options.maxFileSize {
            issues.append(ScanIssue(path: entry.displayPath,
                                    message: "file is \(entry.size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise --max-file-size)"))
            return
        }
        var linesBefore = 0
        var failedRules = Set<Int>()
        var binary = false
        let context = MatchContext(path: entry.displayPath)
        do {
            try reader.read(entry) { chunk in
                binary = chunk.isBinary
                stats.bytes += chunk.accept.count
                progress?.bytesDone.add(chunk.accept.count, ordering: .relaxed)
                linesBefore += scanner.scan(chunk.bytes, isBinary: chunk.isBinary, context: context, accept: chunk.accept,
                                            linesBefore: linesBefore, onFinding: { f in
                    record(f, chunk: chunk, entry: entry)
                }, onFailure: { ruleIndex, message in
                    if failedRules.insert(ruleIndex).inserted {
                        let id = scanner.rules[ruleIndex].id
                        issues.append(ScanIssue(path: entry.displayPath,
                                                message: "rule `\(id)` gave up (\(message)); that rule's results for this file are incomplete"))
                    }
                })
            }
            stats.files += 1
            if binary { stats.binaries += 1 }
        } catch let error as ChunkReader.ReadError {
            issues.append(ScanIssue(path: entry.displayPath, message: error.message))
        } catch {
            issues.append(ScanIssue(path: entry.displayPath, message: "read failed"))
        }
    }

    private func record(_ f: BufferFinding, chunk: Chunk, entry: FileEntry) {
        let rule = scanner.rules[f.ruleIndex]
        let absolute = chunk.fileOffset + f.range.lowerBound
        var location: Location
        if chunk.isBinary {
            location = Location(kind: .binary, path: entry.displayPath, byteOffset: absolute, byteLength: f.range.count)
            location.format = "raw"
            location.fileOffset = absolute
        } else {
            location = Location(kind: .file, path: entry.displayPath, byteOffset: absolute, byteLength: f.range.count)
            location.line = f.line
            location.column = f.column
            location.endLine = f.endLine
            location.endColumn = f.endColumn
        }
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, path: entry.displayPath, section: location.section, secretHash: f.secretHash)
        if options.baseline.contains(fingerprint) { return }
        findings.append(Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint,
                                secretHash: f.secretHash, location: location))
    }
}
