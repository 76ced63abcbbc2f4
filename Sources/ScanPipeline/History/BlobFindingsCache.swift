import GitHistory

/// What history remembers of each blob it scanned, by blob id: the seam between a scan and
/// where its per-blob results live. Today's implementation is in memory for one run
/// (`InMemoryBlobFindingsCache`); attribution asks it for every blob on both sides of every
/// change, so lookups must be cheap.
///
/// What outlives the run sits behind it: `StoredBlobScans` fills this cache, batch by
/// batch, from a persistent `BlobScanStore` (the datastore's, per rule set) before the
/// batch's blobs are read, and stores what scanning gave once the batch is attributed. The
/// records (`BlobEntryCoding`) hold, per finding, the rule id (not the index: indices change
/// with the rule set), the secret hash, the suppression, the text position (line, column,
/// end line, end column, or 0s for a binary buffer), the byte offset and length in the blob,
/// the binary place (format, arch, section, offset, address), the provenance steps and the
/// checks still to settle. Never the secret's bytes, nor anything else read from the blob.
protocol BlobFindingsCache: AnyObject {
    subscript(id: ObjectID) -> BlobEntry? { get }
    func store(_ entry: BlobEntry, for id: ObjectID)
}

/// One run's cache, in memory: a dictionary.
final class InMemoryBlobFindingsCache: BlobFindingsCache {
    private var entries: [ObjectID: BlobEntry] = [:]

    init() {}

    subscript(id: ObjectID) -> BlobEntry? { entries[id] }

    func store(_ entry: BlobEntry, for id: ObjectID) { entries[id] = entry }
}
