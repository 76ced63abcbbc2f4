import GitHistory
import MatchEngine

/// Where blob scan records live between runs: the seam through which the executable wires a
/// persistent store (the datastore's `blob_scans`) into history, so a later run reads from
/// git only the blobs no earlier run scanned with the same rules. The store keeps records as
/// bytes it need not understand (`BlobEntryCoding` writes and reads them); it is opened for
/// one rule set (the rules' identity, builtin pack and loaded rules and config and the
/// options that change findings), so a record is only ever read back by a run whose rules
/// would find exactly what it says. A changed rule set is a new set of records: every blob
/// is scanned again once. Per rule set rather than per rule, because a rule's findings in a
/// blob also depend on the rest of the set (global allowlists, composite rules built on
/// other rules, the decoders' per-rule dedup against raw findings, the placeholder filter):
/// a per-rule record would be wrong whenever those change, and telling that apart safely
/// needs a hash of every such part per rule.
///
/// Calls come from the history's reading thread (`records`) and its attributing thread
/// (`store`), never two at once from the same thread; the store orders them itself.
public protocol BlobScanStore: AnyObject, Sendable {
    /// The records stored for `ids` (raw object id bytes), by index in `ids`. A store that
    /// cannot read answers with fewer (the blobs left out are scanned).
    func records(for ids: [[UInt8]]) -> [Int: [UInt8]]
    /// Records of blobs this run scanned, in one write.
    func store(_ records: [BlobScanRecord])
}

public struct BlobScanRecord: Sendable {
    /// The blob id's raw bytes (20, or 32 for SHA-256 repositories).
    public var id: [UInt8]
    /// How many findings the record holds (for the store's own counts).
    public var findings: Int
    /// Empty for a blob that gave nothing (most of them): a store may keep such a blob as its
    /// id alone, and must answer a lookup of it with an empty record.
    public var record: [UInt8]
}

/// History's use of a `BlobScanStore`: splits each batch's read plan into blobs the store
/// knows (their entries) and blobs to read, and stores what scanning gave.
final class StoredBlobScans: @unchecked Sendable {
    private let store: any BlobScanStore
    private let coding: BlobEntryCoding

    init?(_ store: (any BlobScanStore)?, ruleSet: RuleSet) {
        guard let store, let coding = BlobEntryCoding(ruleSet: ruleSet) else { return nil }
        self.store = store
        self.coding = coding
    }

    /// The entries of the blobs the store holds, and the requests left to read (their
    /// `base` renumbered into the shorter list, or dropped when the base is not read).
    func split(_ requests: [PlannedBlob]) -> (known: [(ObjectID, BlobEntry)], toRead: [PlannedBlob]) {
        guard !requests.isEmpty else { return ([], []) }
        let found = store.records(for: requests.map { Self.raw($0.id) })
        var known: [(ObjectID, BlobEntry)] = []
        var hit = [Bool](repeating: false, count: requests.count)
        for (n, record) in found {
            guard let entry = coding.decode(record) else { continue }
            known.append((requests[n].id, entry))
            hit[n] = true
        }
        if known.isEmpty { return ([], requests) }
        var renumbered = [Int?](repeating: nil, count: requests.count)
        var toRead: [PlannedBlob] = []
        for (n, r) in requests.enumerated() where !hit[n] {
            var r = r
            r.base = r.base.flatMap { renumbered[$0] }
            renumbered[n] = toRead.count
            toRead.append(r)
        }
        return (known, toRead)
    }

    /// Stores the outcomes worth keeping: blobs scanned whole with nothing to report about
    /// the scan itself. A blob that was too large, unreadable, or whose scan met a problem
    /// (a pattern that gave up, a damaged archive) is not stored: the next run reads it
    /// again and reports the problem again, so a problem is never remembered away.
    func save(_ requests: [PlannedBlob], _ outcomes: [BlobWorkers.Outcome]) {
        var records: [BlobScanRecord] = []
        for (request, outcome) in zip(requests, outcomes)
        where outcome.entry.state == .scanned && outcome.issue == nil && outcome.ruleFailures.isEmpty {
            records.append(BlobScanRecord(id: Self.raw(request.id), findings: outcome.entry.findings.count,
                                          record: coding.encode(outcome.entry)))
        }
        store.store(records)
    }

    /// The id's bytes, from its hex digits.
    static func raw(_ id: ObjectID) -> [UInt8] {
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        id.appendHex(to: &hex)
        var out = [UInt8]()
        out.reserveCapacity(hex.count / 2)
        var i = 0
        while i + 1 < hex.count {
            out.append(Self.nibble(hex[i]) << 4 | Self.nibble(hex[i + 1]))
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8 { c >= 0x61 ? c - 0x61 + 10 : c - 0x30 }
}
