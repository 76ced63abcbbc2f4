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
        let s = try db.prepare("SELECT 1 FROM blob_scans WHERE rule_set = ? LIMIT 1")
        try s.bind([.int(ruleSet)])
        return try s.step()
    }

    public func blobScanCount(ruleSet: Int64? = nil) throws -> Int {
        if let ruleSet {
            let s = try db.prepare("SELECT count(*) FROM blob_scans WHERE rule_set = ?")
            try s.bind([.int(ruleSet)])
            return try s.step() ? Int(s.int64(0)) : 0
        }
        return Int(try db.integer("SELECT count(*) FROM blob_scans") ?? 0)
    }
}

/// Lookups and inserts of one rule set's blob records with statements prepared once: a
/// history of 200,000 blobs asks for each of them, and re-preparing per call cost more than
/// the lookup itself.
public final class BlobScanTable {
    private let store: Datastore
    private let ruleSet: Int64
    private let select: Statement
    private let insert: Statement

    public init(_ store: Datastore, ruleSet: Int64) throws {
        self.store = store
        self.ruleSet = ruleSet
        select = try store.db.prepare("SELECT record FROM blob_scans WHERE rule_set = ? AND blob = ?")
        insert = try store.db.prepare("INSERT OR REPLACE INTO blob_scans (rule_set, blob, findings, record) VALUES (?, ?, ?, ?)")
    }

    /// The record of each id that has one.
    public func records(_ ids: [[UInt8]]) throws -> [Int: [UInt8]] {
        var out: [Int: [UInt8]] = [:]
        // One read transaction for the lot: one snapshot, one lock, not one per lookup.
        try store.snapshot {
            for (n, id) in ids.enumerated() {
                try select.bind([.int(ruleSet), .bytes(id)])
                if try select.step() { out[n] = select.bytes(0) }
                select.reset()
            }
        }
        return out
    }

    /// Adds records (id, number of findings, record) in one transaction.
    public func store(_ records: [(id: [UInt8], findings: Int, record: [UInt8])]) throws {
        guard !records.isEmpty else { return }
        try store.db.transaction {
            for r in records { try insert.run([.int(ruleSet), .bytes(r.id), .int(Int64(r.findings)), .bytes(r.record)]) }
        }
    }
}
