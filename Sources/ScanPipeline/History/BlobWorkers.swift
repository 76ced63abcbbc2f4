import Archives
import FileInputs
import Foundation
import GitHistory
import ScanCore
import MatchEngine

/// Reads blobs from one `git cat-file --batch` and scans them on `count` threads.
///
/// One git process, not one per worker: a pack's blobs are mostly deltas on shared bases,
/// and each git process keeps its own delta-base cache, so two readers re-inflate the
/// same bases and nearly double git's CPU time (measured: 0.27 s of git CPU for the
/// benchmark repository's blobs with one reader, 0.45 s split over two) on machines where
/// git and the scanners already share the cores. The calling thread reads, straight into
/// reusable parcels of a few MiB; the scanning threads take whole parcels. A blob over the
/// chunk size (rare) is scanned by the calling thread itself as it is read, one chunk at a
/// time, so no buffer ever grows to a blob's size.
final class BlobWorkers: @unchecked Sendable {
    /// What to read (GitHistory's read plan).
    typealias Request = PlannedBlob
    struct Outcome {
        var entry: BlobEntry
        var bytes: Int
        var binary: Bool
        var issue: String?
        var ruleFailures: [String]
        /// Per finding: whether its secret hash is still to be computed (from the blob's
        /// bytes at its span); findings in derived buffers (UTF-16 runs) come hashed.
        var needsHash: [Bool] = []
    }

    let reader: CatFileReader
    let options: ScanOptions
    let progress: ScanProgress
    private let shared: Shared
    private let ruleSet: RuleSet
    /// For blobs over the chunk size, scanned on the reading thread as they stream in (made
    /// at the first such blob).
    private var streamed: InputFront?
    /// The largest buffer that held blob bytes (a parcel, or the streaming chunk), for tests
    /// of the memory bound.
    private(set) var largestBuffer = 0

    init(git: Git, ruleSet: RuleSet, options: ScanOptions, progress: ScanProgress, count: Int) {
        reader = CatFileReader(git: git)
        self.options = options
        self.ruleSet = ruleSet
        self.progress = progress
        let threads = max(1, count)
        shared = Shared(parcels: threads * 2 + 1)
        let memo = SecretHashMemo(options: options)
        for _ in 0..<threads {
            let front = InputFront(pipeline: BufferPipeline(ruleSet: ruleSet, options: options, hashes: memo))
            let shared = self.shared, progress = self.progress
            Thread.detachNewThread { shared.work(front: front, progress: progress) }
        }
    }

    deinit { shared.finish() }

    /// Ends the git process and the scanning threads.
    func close() {
        reader.close()
        shared.finish()
    }

    /// Scans `requests`; one outcome per request, same order.
    func scan(_ requests: [Request]) -> [Outcome] { start(requests).outcomes() }

    /// Blobs read, their scans under way.
    struct Pending {
        fileprivate let results: OutcomeSlots
        fileprivate let done: DispatchGroup
        fileprivate let count: Int

        /// Waits for the scans; one outcome per request, same order.
        func outcomes() -> [Outcome] {
            done.wait()
            return (0..<count).map { results.slots[$0]! }
        }
    }

    /// Reads every blob of `requests` on the calling thread and hands them to the scanning
    /// threads; returns once all are read, so the caller can read the next list while the
    /// scans of this one finish (git never waits for the scanners between lists).
    func start(_ requests: [Request]) -> Pending {
        let results = OutcomeSlots(count: requests.count)
        let done = DispatchGroup()
        if requests.isEmpty { return Pending(results: results, done: done, count: 0) }
        // git's output is read straight into the parcels: a parcel is shipped when the next
        // object needs a fresh one, and its blobs lie between the header lines where git put them.
        var parcel: Parcel? = nil
        func retire(_ old: Parcel) {
            if old.items.isEmpty {
                shared.giveBack(old)
            } else {
                done.enter()
                shared.submit(old)
            }
        }
        let regions = CatFileReader.Regions(next: { minimum, adopt in
            let fresh = self.shared.takeFree()
            fresh.start(results: results, done: done)
            fresh.ensureCapacity(minimum)
            self.largestBuffer = max(self.largestBuffer, fresh.capacity)
            adopt(fresh.storage, fresh.capacity)
            if let old = parcel { retire(old) }
            parcel = fresh
        }, full: { parcel!.items.count >= Parcel.maxItems })
        let maxSize = options.maxFileSize
        // Blobs up to the chunk size travel whole in parcels; larger ones (a config may raise
        // maxFileSize to gigabytes) are read and scanned in chunks, as files are.
        reader.read(requests.map(\.id), maxSize: maxSize, streamAbove: options.chunkSize, regions: regions, each: { i, result in
            switch result {
            case .object(let type, let bytes) where type == "blob":
                let p = parcel!
                p.items.append(Parcel.Item(index: i, offset: p.storage.distance(to: UnsafeMutableRawPointer(mutating: bytes.baseAddress!)),
                                           count: bytes.count, base: requests[i].base))
                progress.bytesDone.add(bytes.count, ordering: .relaxed)
            case .stream(let type, let size, let stream) where type == "blob":
                results.slots[i] = scanStreamed(stream, size: size)
                progress.bytesDone.add(size, ordering: .relaxed)
                progress.filesDone.add(1, ordering: .relaxed)
            default:
                results.slots[i] = BlobWorkers.outcome(of: result, maxSize: maxSize)
                progress.filesDone.add(1, ordering: .relaxed)
            }
        })
        if let last = parcel { retire(last) }
        return Pending(results: results, done: done, count: requests.count)
    }

    /// A blob over the chunk size, scanned on the reading thread while git sends it.
    private func scanStreamed(_ stream: CatFileReader.ObjectStream, size: Int) -> Outcome {
        if streamed == nil {
            streamed = InputFront(pipeline: BufferPipeline(ruleSet: ruleSet, options: options))
            largestBuffer = max(largestBuffer, options.chunkSize)
        }
        let found = Found(pipeline: streamed!.pipeline)
        let scanned = streamed!.scan(.gitStream(stream, size: size), path: nil, sink: found.sink)
        let (findings, _, failures) = found.take()
        guard scanned.complete else {
            return Outcome(entry: BlobEntry(state: .unreadable, findings: []), bytes: 0, binary: false,
                           issue: "git cat-file ended inside the blob; not scanned whole", ruleFailures: [])
        }
        return Outcome(entry: BlobEntry(state: .scanned, findings: findings), bytes: size,
                       binary: scanned.binary, issue: nil, ruleFailures: failures)
    }

    /// Outcomes that need no scanning.
    static func outcome(of result: CatFileReader.Result, maxSize: Int) -> Outcome {
        switch result {
        case .object, .stream:
            return Outcome(entry: BlobEntry(state: .notBlob, findings: []), bytes: 0, binary: false, issue: nil, ruleFailures: [])
        case .tooLarge(_, let size):
            return Outcome(entry: BlobEntry(state: .tooLarge, findings: []), bytes: 0, binary: false,
                           issue: "blob is \(size) bytes, over the \(maxSize)-byte limit; not scanned (raise --max-file-size)", ruleFailures: [])
        case .missing:
            return Outcome(entry: BlobEntry(state: .unreadable, findings: []), bytes: 0, binary: false,
                           issue: "object missing or corrupt (git cat-file could not read it)", ruleFailures: [])
        case .failed(let message):
            return Outcome(entry: BlobEntry(state: .unreadable, findings: []), bytes: 0, binary: false, issue: message, ruleFailures: [])
        }
    }

    /// The findings of the blob's own bytes have `secretHash` left 0 (`needsHash`): the
    /// caller hashes a parcel's secrets together.
    /// - Parameter found: kept by the caller from blob to blob (one per scanning thread), so a
    ///   blob costs no new collector and sink.
    static func scan(_ bytes: UnsafeRawBufferPointer, with front: InputFront, found: Found, reference: HitReference? = nil) -> Outcome {
        // An archive committed to git is opened as `scan` opens the file: its members'
        // findings carry their member steps, those of its bytes outside the members a raw
        // place, all hashed already (the bytes are gone after the call); each archive problem
        // is an error for the blob's paths.
        let scanned = front.scan(.memory(bytes), path: nil, reference: reference, hashSecrets: false, sink: found.sink)
        let archiveOnly = scanned.opened == .members
        let (findings, needsHash, failures) = found.take()
        return Outcome(entry: BlobEntry(state: .scanned, findings: findings), bytes: archiveOnly ? scanned.archiveBytes : bytes.count,
                       binary: archiveOnly || scanned.binary, issue: nil, ruleFailures: failures, needsHash: needsHash)
    }

    /// What the front reports for one blob, as the history keeps it: findings, and error
    /// texts without the blob's paths (added later), each rule failure once: the blob's own
    /// (`blob`), an archive's inside its members (`member`); problems at a member chain as
    /// `member!inner: message`.
    final class Found {
        let pipeline: BufferPipeline
        private var findings: [CachedFinding] = []
        /// Per finding: whether its secret hash is still to be computed.
        private var needsHash: [Bool] = []
        private var failures: [String] = []
        private var archiveIssues: [String] = []
        private var problems: [String] = []
        /// Made once: a history holds hundreds of thousands of blobs (git.git: 6 heap blocks a
        /// blob for a collector and its closures, made afresh).
        private(set) lazy var sink = makeSink()

        init(pipeline: BufferPipeline) { self.pipeline = pipeline }

        /// What the last blob gave (its error texts: archive issues, rule failures, problems),
        /// the collector emptied for the next.
        func take() -> (findings: [CachedFinding], needsHash: [Bool], failures: [String]) {
            defer {
                findings = []; needsHash = []
                failures.removeAll(keepingCapacity: true); archiveIssues.removeAll(keepingCapacity: true); problems.removeAll(keepingCapacity: true)
            }
            let texts = archiveIssues.isEmpty && problems.isEmpty ? failures : archiveIssues + failures + problems
            return (findings, needsHash, texts)
        }

        /// An issue at a member chain as the history's blob errors print it.
        static func text(_ members: [[UInt8]], _ message: String) -> String {
            members.isEmpty ? message : String(ArchiveMemberScan.path("", members).dropFirst()) + ": " + message
        }

        private func makeSink() -> InputFront.Sink {
            InputFront.Sink(onFinding: { [unowned self] f in
                self.findings.append(CachedFinding(f))
                self.needsHash.append(f.secretHash.isEmpty)
            }, onFailure: { [unowned self] failure, place in
                let id = self.pipeline.rules[failure.ruleIndex].id
                switch place {
                case .input:
                    let text = failure.describe(ruleId: id, unit: "blob")
                    if !self.failures.contains(text) { self.failures.append(text) }
                case .archive(let members):
                    let text = Found.text(members, failure.describe(ruleId: id, unit: "member"))
                    if !self.archiveIssues.contains(text) { self.archiveIssues.append(text) }
                }
            }, onProblem: { [unowned self] members, message in
                self.problems.append(Found.text(members, message))
            })
        }
    }

    /// The parcels in flight and the free ones; the scanning threads' loop.
    final class Shared: @unchecked Sendable {
        private let condition = NSCondition()
        private var full: [Parcel] = []
        private var free: [Parcel]
        private var finished = false

        init(parcels: Int) { free = (0..<parcels).map { _ in Parcel() } }

        func takeFree() -> Parcel {
            condition.lock()
            defer { condition.unlock() }
            while free.isEmpty { condition.wait() }
            return free.removeLast()
        }

        func giveBack(_ parcel: Parcel) {
            parcel.recycle()
            condition.lock()
            free.append(parcel)
            condition.broadcast()
            condition.unlock()
        }

        func submit(_ parcel: Parcel) {
            condition.lock()
            full.append(parcel)
            condition.broadcast()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        func work(front: InputFront, progress: ScanProgress) {
            let pipeline = front.pipeline
            let found = Found(pipeline: pipeline)
            while true {
                condition.lock()
                while full.isEmpty && !finished { condition.wait() }
                if full.isEmpty { condition.unlock(); return }
                let parcel = full.removeFirst()
                condition.unlock()
                // Keyword hits of this parcel's text blobs, by request index, for later versions.
                var scanned: [Int: (item: Parcel.Item, hits: [UInt64])] = [:]
                var unhashed: [(slot: Int, finding: Int, secret: UnsafeRawBufferPointer)] = []
                for item in parcel.items {
                    let bytes = UnsafeRawBufferPointer(start: parcel.storage + item.offset, count: item.count)
                    var reference: HitReference?
                    if let base = item.base, let earlier = scanned[base] {
                        reference = HitReference(bytes: UnsafeRawBufferPointer(start: parcel.storage + earlier.item.offset, count: earlier.item.count),
                                                 hits: earlier.hits)
                    }
                    let outcome = BlobWorkers.scan(bytes, with: front, found: found, reference: reference)
                    if !outcome.binary && bytes.count > 0 { scanned[item.index] = (item, pipeline.hits) }
                    for (k, f) in outcome.entry.findings.enumerated() where outcome.needsHash[k] {
                        unhashed.append((item.index, k, UnsafeRawBufferPointer(start: bytes.baseAddress! + f.byteOffset, count: Int(f.byteLength))))
                    }
                    parcel.results!.slots[item.index] = outcome
                }
                // The hashes (and baseline tags) of the whole parcel's secrets at once.
                if !unhashed.isEmpty {
                    let hashes = pipeline.scanner.identities(unhashed.map(\.secret))
                    for (u, h) in zip(unhashed, hashes) {
                        parcel.results!.slots[u.slot]!.entry.findings[u.finding].secretHash = UInt64(h, radix: 16) ?? 0
                    }
                    if pipeline.scanner.computesTags {
                        for (u, t) in zip(unhashed, pipeline.scanner.valueTags(unhashed.map(\.secret))) {
                            parcel.results!.slots[u.slot]!.entry.findings[u.finding].tags = t
                        }
                    }
                }
                progress.filesDone.add(parcel.items.count, ordering: .relaxed)
                let done = parcel.done!
                giveBack(parcel)
                done.leave()
            }
        }
    }

    /// Several blobs' bytes as git sent them (its header lines between them), and where each
    /// one's outcome goes.
    final class Parcel: @unchecked Sendable {
        struct Item { var index: Int; var offset: Int; var count: Int; var base: Int? }
        static let size = 4 << 20
        static let maxItems = 256
        private(set) var storage: UnsafeMutableRawPointer
        private(set) var capacity: Int
        var items: [Item] = []
        var results: OutcomeSlots?
        var done: DispatchGroup?

        init() {
            capacity = Parcel.size
            storage = .allocate(byteCount: capacity, alignment: 64)
            items.reserveCapacity(Parcel.maxItems)
        }

        deinit { storage.deallocate() }

        func start(results: OutcomeSlots, done: DispatchGroup) {
            self.results = results
            self.done = done
        }

        /// Room for at least `minimum` bytes (a blob larger than a parcel travels in a parcel
        /// grown for it). Called on an empty parcel, so nothing is copied.
        func ensureCapacity(_ minimum: Int) {
            if minimum <= capacity { return }
            storage.deallocate()
            capacity = minimum
            storage = .allocate(byteCount: capacity, alignment: 64)
        }

        /// Emptied for reuse; one grown for a huge blob shrinks back, so memory stays bounded.
        func recycle() {
            items.removeAll(keepingCapacity: true)
            results = nil
            done = nil
            if capacity > Parcel.size {
                storage.deallocate()
                capacity = Parcel.size
                storage = .allocate(byteCount: capacity, alignment: 64)
            }
        }
    }
}

/// Per-request result slots; each index is written by one thread only.
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

extension PlannedBlob {
    /// "path in commit id", built only when an error entry needs it.
    var context: String {
        guard let path, let commit else { return "" }
        return "\(HistoryRun.displayPath(path)) in commit \(commit.hex)"
    }
}
