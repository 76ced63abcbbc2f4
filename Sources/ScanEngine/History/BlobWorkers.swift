import FileInputs
import Foundation
import GitHistory
import ScanCore
import ScanRules

/// The scanning workers: each has its own `git cat-file --batch` and its own BufferScanner,
/// and takes blobs from a shared list a few at a time.
final class BlobWorkers: @unchecked Sendable {
    struct Request { var id: ObjectID; var context: String }
    struct Outcome {
        var entry: BlobEntry
        var bytes: Int
        var binary: Bool
        var issue: String?
        var ruleFailures: [String]
    }

    let readers: [CatFileReader]
    let scanners: [BufferScanner]
    let options: ScanOptions
    let progress: ScanProgress

    init(git: Git, ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress, count: Int) {
        readers = (0..<count).map { _ in CatFileReader(git: git) }
        scanners = (0..<count).map { _ in BufferScanner(ruleSet: ruleSet, options: options) }
        self.options = options
        self.progress = progress
    }

    func close() { for r in readers { r.close() } }

    /// Scans `requests` across the workers; one outcome per request, same order.
    func scan(_ requests: [Request]) -> [Outcome] {
        if requests.isEmpty { return [] }
        let results = OutcomeSlots(count: requests.count)
        let lock = NSLock()
        var cursor = 0
        let chunk = max(1, min(256, requests.count / (readers.count * 8)))
        let workers = min(readers.count, (requests.count + chunk - 1) / chunk)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let reader = readers[w], scanner = scanners[w]
            while true {
                lock.lock()
                let start = cursor
                cursor += chunk
                lock.unlock()
                guard start < requests.count else { break }
                let end = min(requests.count, start + chunk)
                let ids = requests[start..<end].map(\.id)
                reader.read(ids, maxSize: options.maxFileSize) { i, result in
                    results.slots[start + i] = self.outcome(result, request: requests[start + i], scanner: scanner)
                    self.progress.filesDone.add(1, ordering: .relaxed)
                }
            }
        }
        return results.slots.map { $0! }
    }

    private func outcome(_ result: CatFileReader.Result, request: Request, scanner: BufferScanner) -> Outcome {
        switch result {
        case .object(let type, let bytes):
            guard type == "blob" else {
                return Outcome(entry: BlobEntry(state: .notBlob, findings: []), bytes: 0, binary: false, issue: nil, ruleFailures: [])
            }
            progress.bytesDone.add(bytes.count, ordering: .relaxed)
            let binary = ChunkReader.looksBinary(bytes)
            var findings: [CachedFinding] = []
            var failures: [String] = []
            if bytes.count > 0 {
                scanner.scan(bytes, isBinary: binary, context: MatchContext(), onFinding: { f in
                    findings.append(CachedFinding(f))
                }, onFailure: { ruleIndex, message in
                    let id = scanner.rules[ruleIndex].id
                    if !failures.contains(where: { $0.hasPrefix("rule `\(id)`") }) {
                        failures.append("rule `\(id)` gave up (\(message)); that rule's results for this blob are incomplete")
                    }
                })
            }
            return Outcome(entry: BlobEntry(state: .scanned, findings: findings), bytes: bytes.count, binary: binary, issue: nil, ruleFailures: failures)
        case .tooLarge(_, let size):
            return Outcome(entry: BlobEntry(state: .tooLarge, findings: []), bytes: 0, binary: false,
                           issue: "blob is \(size) bytes, over the \(options.maxFileSize)-byte limit; not scanned (raise --max-file-size)", ruleFailures: [])
        case .missing:
            return Outcome(entry: BlobEntry(state: .unreadable, findings: []), bytes: 0, binary: false,
                           issue: "object missing or corrupt (git cat-file could not read it)", ruleFailures: [])
        case .failed(let message):
            return Outcome(entry: BlobEntry(state: .unreadable, findings: []), bytes: 0, binary: false, issue: message, ruleFailures: [])
        }
    }
}

/// Per-request result slots; each index is written by one worker only.
final class OutcomeSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<BlobWorkers.Outcome?>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }
    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}
