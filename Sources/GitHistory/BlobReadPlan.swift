/// One blob to read: where it was met, and the earlier read that holds another version
/// of the same path.
public struct PlannedBlob: Sendable {
    public var id: ObjectID
    /// Where the blob was met (path and commit), for error entries; nil for a blob no
    /// commit reaches.
    public var path: [UInt8]?
    public var commit: ObjectID?
    /// An earlier request in the same list holding another version of the same path: when
    /// both travel in one parcel, only the bytes where they differ are searched for keywords.
    public var base: Int?

    public init(id: ObjectID, path: [UInt8]? = nil, commit: ObjectID? = nil, base: Int? = nil) {
        self.id = id
        self.path = path
        self.commit = commit
        self.base = base
    }
}

/// The order history reads blobs in.
public enum BlobReadPlan {
    /// The blobs a batch names (both sides of each change) that no earlier batch asked for.
    /// The blobs are grouped by path, oldest version first, and each names the version
    /// before it as `base`: versions of one file then travel together, and the scanner
    /// searches only where each differs from the one before.
    ///
    /// Oldest first because of git's delta-base cache: packs keep the newest version whole
    /// and older ones as deltas on newer ones, and reading an object caches the bases it was
    /// rebuilt from but not the object itself. Read newest first, every older version
    /// rebuilds its base again; read oldest first, one walk down the chain leaves every
    /// newer version in the cache. Measured on the benchmark repository: git cat-file ran
    /// 674 million instructions instead of 804 million for the same blobs.
    /// - Parameter skip: paths whose blobs are not read there (a path-only allowlist).
    /// - Parameter skipped: the blobs left unread at an allowlisted path so far (counted in
    ///   the summary; one read at another path later still counts once here).
    public static func blobs(_ batch: [CommitChanges], requested: inout Set<ObjectID>, skipped: inout Set<ObjectID>,
                             skip: ([UInt8]) -> Bool) -> [PlannedBlob] {
        var wanted: [(path: [UInt8], request: PlannedBlob)] = []
        func want(_ id: ObjectID, _ mode: UInt32, path: [UInt8], commit: ObjectID, group: [UInt8]) {
            if id.isZero || mode == TreeChange.gitlinkMode || requested.contains(id) { return }
            if skip(path) { skipped.insert(id); return }
            requested.insert(id)
            wanted.append((group, PlannedBlob(id: id, path: path, commit: commit)))
        }
        for c in batch {
            for ch in c.changes {
                if !ch.isDeletion { want(ch.newBlob, ch.newMode, path: ch.path, commit: c.commit.id, group: ch.path) }
                for (i, old) in ch.oldBlobs.enumerated() {
                    want(old, ch.oldModes[i], path: ch.oldPath ?? ch.path,
                         commit: c.commit.parents.indices.contains(i) ? c.commit.parents[i] : c.commit.id, group: ch.path)
                }
            }
        }
        // Groups in the order their paths first appear; versions within a group oldest first
        // (commits come newest first).
        var groupOf: [[UInt8]: Int] = [:]
        var groups: [[Int]] = []
        for (i, w) in wanted.enumerated() {
            if let g = groupOf[w.path] {
                groups[g].append(i)
            } else {
                groupOf[w.path] = groups.count
                groups.append([i])
            }
        }
        var requests: [PlannedBlob] = []
        requests.reserveCapacity(wanted.count)
        for group in groups {
            for (k, i) in group.reversed().enumerated() {
                var request = wanted[i].request
                if k > 0 { request.base = requests.count - 1 }
                requests.append(request)
            }
        }
        return requests
    }
}
