import FileInputs
import ScanCore
import ScanRules

/// One worker's view of a folder scan: its own matcher, read buffer and mask buffer,
/// reused for every file it takes.
final class FileScanner {
    let matcher: Matcher
    let reader: ChunkReader
    let maskBuffer: UnsafeMutableRawBufferPointer
    let options: ScanOptions
    let hasher: SecretHasher
    var hashCache: [[UInt8]: String] = [:]

    var findings: [Finding] = []
    var issues: [ScanIssue] = []
    var stats = ScanStats()

    let progress: ScanProgress?

    init(ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress? = nil) {
        self.progress = progress
        matcher = Matcher(ruleSet: ruleSet)
        reader = ChunkReader(chunkSize: options.chunkSize, overlap: min(64 << 10, options.chunkSize / 4))
        maskBuffer = .allocate(byteCount: options.chunkSize, alignment: 64)
        self.options = options
        hasher = SecretHasher(key: options.hashKey)
    }

    deinit { maskBuffer.deallocate() }

    func scan(_ entry: FileEntry) {
        if entry.size > options.maxFileSize {
            issues.append(ScanIssue(path: entry.displayPath,
                                    message: "file is \(entry.size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise --max-file-size)"))
            return
        }
        var linesBefore = 0
        var failedRules = Set<Int>()
        var binary = false
        do {
            try reader.read(entry) { chunk in
                binary = chunk.isBinary
                stats.bytes += chunk.accept.count
                progress?.bytesDone.add(chunk.accept.count, ordering: .relaxed)
                let buffer: UnsafeRawBufferPointer
                if chunk.isBinary {
                    PrintableRuns.mask(chunk.bytes, into: maskBuffer, minLength: options.minStringLength)
                    buffer = UnsafeRawBufferPointer(rebasing: maskBuffer[0..<chunk.bytes.count])
                } else {
                    buffer = chunk.bytes
                }
                let context = MatchContext(path: entry.displayPath)
                matcher.scan(buffer, context: context, accept: chunk.accept, onMatch: { m in
                    record(m, buffer: buffer, chunk: chunk, entry: entry, linesBefore: linesBefore)
                }, onFailure: { f in
                    if failedRules.insert(f.ruleIndex).inserted {
                        let id = matcher.ruleSet.rules[f.ruleIndex].id
                        issues.append(ScanIssue(path: entry.displayPath,
                                                message: "rule `\(id)` gave up (\(f.message)); that rule's results for this file are incomplete"))
                    }
                })
                if !chunk.isBinary {
                    linesBefore += TextPosition.countNewlines(UnsafeRawBufferPointer(rebasing: buffer[chunk.accept]))
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

    private func record(_ m: RuleMatch, buffer: UnsafeRawBufferPointer, chunk: Chunk, entry: FileEntry, linesBefore: Int) {
        let rule = matcher.ruleSet.rules[m.ruleIndex]
        // Inline allow markers on the secret's line or the match's first line.
        let secretLine = Matcher.lineRange(containing: m.secret.lowerBound, in: buffer)
        if InlineAllow.present(in: UnsafeRawBufferPointer(rebasing: buffer[secretLine])) { return }
        if !secretLine.contains(m.match.lowerBound) {
            let matchLine = Matcher.lineRange(containing: m.match.lowerBound, in: buffer)
            if InlineAllow.present(in: UnsafeRawBufferPointer(rebasing: buffer[matchLine])) { return }
        }

        let secretHash = hash(UnsafeRawBufferPointer(rebasing: buffer[m.secret]))
        let absolute = chunk.fileOffset + m.secret.lowerBound
        var location: Location
        let section: String?
        if chunk.isBinary {
            location = Location(kind: .binary, path: entry.displayPath, byteOffset: absolute, byteLength: m.secret.count)
            location.format = "raw"
            location.fileOffset = absolute
            section = nil
        } else {
            location = Location(kind: .file, path: entry.displayPath, byteOffset: absolute, byteLength: m.secret.count)
            let start = TextPosition.locate(m.secret.lowerBound, in: buffer, linesBefore: linesBefore)
            let end = TextPosition.locate(m.secret.upperBound, in: buffer, linesBefore: linesBefore)
            location.line = start.line
            location.column = start.column
            location.endLine = end.line
            location.endColumn = end.column
            section = nil
        }
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, path: entry.displayPath, section: section, secretHash: secretHash)
        if options.baseline.contains(fingerprint) { return }
        findings.append(Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint,
                                secretHash: secretHash, location: location))
    }

    private func hash(_ secret: UnsafeRawBufferPointer) -> String {
        let key = Array(secret)
        if let cached = hashCache[key] { return cached }
        let h = hasher.secretHash(secret)
        hashCache[key] = h
        return h
    }
}
