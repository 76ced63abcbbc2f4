import Foundation

/// The per-blob cache: for each rule set (a `RulesIdentity` hash), the blobs scanned with it
/// and the record of what each gave. The records are the scanner's (`BlobScanStore` in the
/// scanner): the datastore keeps them as bytes, keyed by the blob id's raw bytes, and never
/// reads them. A blob is a pure function of its id, so a record serves every repository
/// and every clone that holds the blob.
extension Datastore {
    /// The number of `rulesHash` in `rule_sets`, added when it is new.
    public func ruleSetID(_ rulesHash: String) throws -> Int64 {
        try db.transaction {
            try db.prepare("INSERT OR IGNORE INTO rule_sets (rules_hash) VALUES (?)").run([.text(rulesHash)])
            let s = try db.prepare("SELECT id FROM rule_sets WHERE rules_hash = ?")
            try s.bind([.text(rulesHash)])
            guard try s.step() else { throw DatastoreError(.sqlite, "rule set row missing after insert") }
            return s.int64(0)
        }
    }

    /// Whether any blob was recorded for `ruleSet` (a first run need not look blobs up).
    public func hasBlobScans(ruleSet: Int64) throws -> Bool {
        for table in ["clean_blobs", "blob_scans"] {
            let s = try db.prepare("SELECT 1 FROM \(table) WHERE rule_set = ? LIMIT 1")
            try s.bind([.int(ruleSet)])
            if try s.step() { return true }
        }
        return false
    }

    /// Blobs recorded (for `ruleSet`, or for all): full records plus the ids of clean ones.
    public func blobScanCount(ruleSet: Int64? = nil) throws -> Int {
        let filter = ruleSet == nil ? "" : " WHERE rule_set = ?"
        let values: [SQLValue] = ruleSet.map { [.int($0)] } ?? []
        let full = try db.prepare("SELECT count(*) FROM blob_scans" + filter).rows(values) { $0.int64(0) }.first ?? 0
        let clean = try db.prepare("SELECT coalesce(sum(length(ids) / width), 0) FROM clean_blobs" + filter).rows(values) { $0.int64(0) }.first ?? 0
        return Int(full + clean)
    }
}

/// Lookups and inserts of one rule set's blob records with statements prepared once: a
/// history of 200,000 blobs asks for each of them, and re-preparing per call cost more than
/// the lookup itself.
///
/// An empty record (a blob scanned whole that gave nothing, nine in ten of git.git's) is kept
/// as its id alone, many ids to a `clean_blobs` row, and read back as an empty record: the
/// ids of a rule set are read once, into a set, on the first lookup. A B-tree insert at a
/// random key per blob was most of what recording cost (see `DatastoreBlobStore`).
public final class BlobScanTable {
    private let store: Datastore
    private let ruleSet: Int64
    private let select: Statement
    private let insert: Statement
    private let insertClean: Statement
    /// The clean ids of this rule set, read on the first lookup.
    private var clean: Set<BlobKey>?

    public init(_ store: Datastore, ruleSet: Int64) throws {
        self.store = store
        self.ruleSet = ruleSet
        select = try store.db.prepare("SELECT record FROM blob_scans WHERE rule_set = ? AND blob = ?")
        insert = try store.db.prepare("INSERT OR REPLACE INTO blob_scans (rule_set, blob, findings, record) VALUES (?, ?, ?, ?)")
        insertClean = try store.db.prepare("INSERT INTO clean_blobs (rule_set, width, ids) VALUES (?, ?, ?)")
    }

    /// The record of each id that has one (empty for a blob that gave nothing).
    public func records(_ ids: [[UInt8]]) throws -> [Int: [UInt8]] {
        var out: [Int: [UInt8]] = [:]
        // One read transaction for the lot: one snapshot, one lock, not one per lookup.
        try store.snapshot {
            if clean == nil { clean = try loadClean() }
            for (n, id) in ids.enumerated() {
                if let key = BlobKey(id), clean?.contains(key) == true {
                    out[n] = []
                    continue
                }
                try select.bind([.int(ruleSet), .bytes(id)])
                // An empty record here is damage, not a clean blob (those are in `clean_blobs`).
                if try select.step() { let record = select.bytes(0); if !record.isEmpty { out[n] = record } }
                select.reset()
            }
        }
        return out
    }

    private func loadClean() throws -> Set<BlobKey> {
        var keys = Set<BlobKey>()
        let s = try store.db.prepare("SELECT width, ids FROM clean_blobs WHERE rule_set = ?")
        try s.bind([.int(ruleSet)])
        while try s.step() {
            let width = Int(s.int64(0))
            guard width == 20 || width == 32 else { continue }
            let ids = s.bytes(1)
            var at = 0
            while at + width <= ids.count {
                if let key = BlobKey(ids[at..<at + width]) { keys.insert(key) }
                at += width
            }
        }
        s.reset()
        return keys
    }

    /// Adds records (id, number of findings, record) in one transaction: the empty ones as
    /// one `clean_blobs` row per id width, the others a `blob_scans` row each.
    public func store(_ records: [(id: [UInt8], findings: Int, record: [UInt8])]) throws {
        guard !records.isEmpty else { return }
        var cleanIDs: [Int: [UInt8]] = [:]
        try store.db.transaction {
            for r in records {
                if r.record.isEmpty {
                    cleanIDs[r.id.count, default: []] += r.id
                } else {
                    try insert.run([.int(ruleSet), .bytes(r.id), .int(Int64(r.findings)), .bytes(r.record)])
                }
            }
            for (width, ids) in cleanIDs.sorted(by: { $0.key < $1.key }) {
                try insertClean.run([.int(ruleSet), .int(Int64(width)), .bytes(ids)])
            }
        }
    }
}

/// A blob id's bytes (20 or 32) as a set element with no allocation of its own.
struct BlobKey: Hashable {
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
    var width: UInt8

    init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard bytes.count == 20 || bytes.count == 32 else { return nil }
        width = UInt8(bytes.count)
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            for (n, b) in bytes.enumerated() { raw[n] = b }
        }
        (w0, w1, w2, w3) = words
    }
}
