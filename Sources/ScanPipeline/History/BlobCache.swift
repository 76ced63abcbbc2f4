import GitHistory
import ScanCore
import MatchEngine

/// A finding in one blob, independent of path and commit: what attribution needs, no bytes.
struct CachedFinding: Sendable {
    var ruleIndex: Int32
    /// `secretHash` as a number (its 16 hex digits).
    var secretHash: UInt64
    /// 0 when the blob is binary.
    var line: Int32
    var column: Int32
    var endLine: Int32
    var endColumn: Int32
    var byteOffset: Int
    var byteLength: Int32
    /// Allowlisted or inline-allowed by the blob's bytes alone (scanned without path or commit);
    /// what depends on those is in `pending`, settled with the real ones.
    var suppression: Suppression?
    /// In an object file's bytes: where (the blob's own layout, as `scan` gives for the file).
    var binary: BinaryPlace?
    /// What transforms added to the provenance (see `ProvenanceStep`).
    var steps: [ProvenanceStep]
    /// Path and commit conditions, settled for each path and commit the blob is met at.
    var pending: DeferredChecks?
    /// The rule's checksum on the secret (nil: none applies).
    var checksum: Bool?
    /// The named-credential pass's confidence and provider label (see `BufferFinding`).
    var confidence: Confidence?
    var provider: Int?
    /// For baselines (`ValueTags`); in memory only: a record read back from the datastore has
    /// none, and its findings then match a baseline by fingerprint.
    var tags = ValueTags()

    /// A finding read back from a stored record (`BlobEntryCoding`); the rest is set after.
    init(ruleIndex: Int32, secretHash: UInt64, line: Int32, column: Int32, endLine: Int32, endColumn: Int32,
         byteOffset: Int, byteLength: Int32) {
        self.ruleIndex = ruleIndex
        self.secretHash = secretHash
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
        self.byteOffset = byteOffset
        self.byteLength = byteLength
        steps = []
    }

    init(_ f: BufferFinding) {
        ruleIndex = Int32(f.ruleIndex)
        secretHash = UInt64(f.secretHash, radix: 16) ?? 0
        line = Int32(clamping: f.line ?? 0)
        column = Int32(clamping: f.column ?? 0)
        endLine = Int32(clamping: f.endLine ?? 0)
        endColumn = Int32(clamping: f.endColumn ?? 0)
        byteOffset = f.range.lowerBound
        byteLength = Int32(clamping: f.range.count)
        suppression = f.suppression
        binary = f.binary
        steps = f.steps
        pending = f.pending
        checksum = f.checksum
        confidence = f.confidence
        provider = f.provider
        tags = f.tags
    }

    var hashText: String {
        let s = String(secretHash, radix: 16)
        return String(repeating: "0", count: max(0, 16 - s.count)) + s
    }

    /// Identity of the secret, for "was it already there". Suppressed and reported findings
    /// never share a key: a secret inline-allowed in the parent and unmarked in the child is
    /// new there, as it was before suppressed findings were kept at all.
    var key: SecretKey { SecretKey(ruleIndex: ruleIndex, secretHash: secretHash, suppression: suppression) }

    /// The finding's location in a blob whose provenance is `provenance`.
    func location(_ provenance: Provenance) -> Location {
        var l = Location(ProvenanceStep.apply(steps, to: provenance), byteOffset: byteOffset, byteLength: Int(byteLength))
        l.binary = binary
        if line > 0 && binary == nil {
            l.setText(line: Int(line), column: Int(column), endLine: Int(endLine), endColumn: Int(endColumn))
        }
        return l
    }
}

struct SecretKey: Hashable { var ruleIndex: Int32; var secretHash: UInt64; var suppression: Suppression? }

/// What scanning a blob gave. Blobs without findings cost one small entry.
struct BlobEntry {
    enum State: UInt8 { case scanned, tooLarge, unreadable, notBlob }
    var state: State
    var findings: [CachedFinding]
}
