import Datastore
import Foundation
import ScanCore
import ScanPipeline

/// `scan --datastore`: findings recorded as the scanner reports them, a batch (one
/// transaction) each `Datastore.batchSize` findings, so a long scan's findings are in the
/// datastore before it ends and a reader sees them arrive. What it receives then goes on to
/// `next` (the streamed text output).
///
/// The scanner calls `receive` one unit at a time; the lock also orders `finish`.
final class DatastoreSink: FindingSink, @unchecked Sendable {
    private let store: Datastore
    private let run: Int64
    private let next: (any FindingSink)?
    private let minConfidence: Confidence
    private let lock = NSLock()
    private var pending: [Finding] = []
    private var failure: Error?
    /// How many findings it was handed.
    private(set) var received = 0

    init(store: Datastore, run: Int64, minConfidence: Confidence, next: (any FindingSink)?) {
        self.store = store
        self.minConfidence = minConfidence
        self.run = run
        self.next = next
    }

    /// Recorded (when a batch fills) before it is handed on: a finding printed by a scan
    /// writing to a datastore is in the datastore or in the batch that will be.
    func receive(_ findings: [Finding]) {
        // Below `--min-confidence`: in no report, so not in the datastore either.
        let kept = findings.filter { $0.confidence >= minConfidence }
        lock.lock()
        pending += kept
        received += kept.count
        if pending.count >= Datastore.batchSize { flush() }
        lock.unlock()
        next?.receive(findings)
    }

    private func flush() {
        guard failure == nil, !pending.isEmpty else { pending = []; return }
        do { try store.record(pending, run: run) } catch { failure = error }
        pending = []
    }

    /// Writes what is pending now (history's walk log, before it logs a batch of commits as
    /// attributed); throws the first error any batch met.
    func write() throws {
        lock.lock()
        defer { lock.unlock() }
        flush()
        if let failure { throw failure }
    }

    /// Records what is still pending; the first error any batch met, if one did. Returns how
    /// many findings it was handed.
    func finish() throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        flush()
        if let failure { throw failure }
        return received
    }
}
