import Datastore
import Foundation
import ScanPipeline

/// `history --datastore`: the datastore's `blob_scans` as history's per-blob cache, for this
/// run's rule set (`RulesIdentity`). Its own connection, so the reading thread's lookups and
/// the attributing thread's writes never share one with the recorder; a lock orders the two.
///
/// Records are written in transactions of up to `flushRecords` records, or what two seconds
/// gathered, whichever comes first, and the rest at the end (`flush`): blob ids are random
/// keys, so every transaction rewrites most leaf pages it touches into the WAL; 165,000
/// records in 825 transactions cost 2.7 s of CPU and 83 s on this machine's disk, in 20
/// transactions 1.6 s and 32 s (a Python sqlite3 replay of git.git's blob count). Since
/// schema 5 only blobs with findings are such keyed rows (a few thousand in git.git); the
/// clean ones are one appended row per transaction (`BlobScanTable`). A profile of a
/// git.git run before that change put all of recording (sqlite, the record coding, the
/// writes and syncs of the WAL) at about 2% of the run's CPU samples, so the writes stay on
/// the attributing thread: a writer thread would save its share of that and add a hand-over.
/// A run killed mid-way loses at most the last two seconds of blob scans, never a finding.
///
/// A write that fails does not stop the scan (the findings do not depend on it): the first
/// error is kept and `DatastoreRecorder.finish` reports it, exit 2, as any failure to record.
final class DatastoreBlobStore: BlobScanStore, @unchecked Sendable {
    private let lock = NSLock()
    private let store: Datastore
    private let table: BlobScanTable
    /// None recorded for this rule set yet (a first run): nothing to look up.
    private var empty: Bool
    private(set) var failure: Error?
    /// Records written by this run.
    private(set) var written = 0
    private var pending: [BlobScanRecord] = []
    private var lastFlush = Date()
    static let flushRecords = 8192
    /// Seconds between writes: 2, or `KEYSHAPE_DATASTORE_FLUSH_SECONDS` (0.01 to 3600), which
    /// the kill test sets low so that it kills a run between two writes however fast the
    /// machine scans (on an idle one the debug build had scanned all 800 of its blobs
    /// within the first two seconds).
    static let flushSeconds: TimeInterval = {
        if let text = ProcessInfo.processInfo.environment["KEYSHAPE_DATASTORE_FLUSH_SECONDS"], let value = Double(text),
           value >= 0.01, value <= 3600 {
            return value
        }
        return 2
    }()

    init(path: String, rulesHash: String) throws {
        store = try Datastore(path: path, create: false)
        let ruleSet = try store.ruleSetID(rulesHash)
        table = try BlobScanTable(store, ruleSet: ruleSet)
        empty = !(try store.hasBlobScans(ruleSet: ruleSet))
    }

    func records(for ids: [[UInt8]]) -> [Int: [UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        if empty { return [:] }
        // A read that fails leaves the blobs to be scanned: slower, never wrong.
        return (try? table.records(ids)) ?? [:]
    }

    func store(_ records: [BlobScanRecord]) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil, !records.isEmpty else { return }
        pending += records
        if pending.count >= Self.flushRecords || Date().timeIntervalSince(lastFlush) >= Self.flushSeconds { write() }
    }

    /// Writes what is still pending (the recorder calls it when the run ends).
    func flush() {
        lock.lock()
        defer { lock.unlock() }
        write()
    }

    private func write() {
        lastFlush = Date()
        guard failure == nil, !pending.isEmpty else { pending = []; return }
        do {
            try table.store(pending.map { ($0.id, $0.findings, $0.record) })
            written += pending.count
        } catch {
            failure = error
        }
        pending = []
    }
}
