import GitHistory
import ScanCore
import MatchEngine

/// The secrets held by the paths a merge deletes relative to one of its parents: what
/// attribution needs to recognise a rename that a merge carries (one parent renamed a file,
/// the other changed it under its old name, and the merge holds the changed text at the
/// new name). A merge's combined diff does not list those deletions (the path is gone in
/// the merge and in the renaming parent alike), so they are asked of git here, only for a
/// merge about to report a secret at a path some parent lacks: a handful per history.
final class MergeDeletions {
    let git: Git
    let ruleSet: RuleSet
    let options: ScanOptions
    private var reader: CatFileReader?
    private var front: InputFront?
    private let scratch: MatchScratch
    private var memo: [ObjectID: [SecretKey]] = [:]

    init(git: Git, ruleSet: RuleSet, options: ScanOptions) {
        self.git = git
        self.ruleSet = ruleSet
        self.options = options
        scratch = ruleSet.makeScratch()
    }

    func close() { reader?.close() }

    /// The secrets in the blobs `merge` deletes relative to `parent`. Blobs already scanned
    /// come from `known`; the others are read and scanned here. What could not be listed or
    /// read is an issue (and holds no secret, so the merge's finding stays reported).
    func secrets(merge: ObjectID, parent: ObjectID, known: (ObjectID) -> BlobEntry?) -> (keys: Set<SecretKey>, issues: [ScanIssue]) {
        let deleted: [TreeChange]
        do {
            deleted = try CommitLog.deletions(git, from: parent, to: merge)
        } catch {
            return ([], [ScanIssue(path: "", message: "merge \(merge.hex): listing the paths it deletes relative to \(parent.hex): \(error)")])
        }
        var keys = Set<SecretKey>()
        var issues: [ScanIssue] = []
        var unread: [(id: ObjectID, path: [UInt8])] = []
        for d in deleted {
            guard let id = d.oldBlobs.first, !id.isZero, d.oldModes.first != TreeChange.gitlinkMode else { continue }
            if let entry = known(id) {
                for f in entry.findings { keys.insert(f.key) }
            } else if let cached = memo[id] {
                keys.formUnion(cached)
            } else if !ruleSet.allowsWholeFile(HistoryRun.displayPath(d.path), scratch: scratch) {
                // As in the commit stream, a path a path-only allowlist covers is not read.
                unread.append((id, d.path))
            }
        }
        if unread.isEmpty { return (keys, issues) }
        if reader == nil {
            reader = CatFileReader(git: git, streaming: false)
            front = InputFront(pipeline: BufferPipeline(ruleSet: ruleSet, options: options))
        }
        let front = self.front!, pipeline = front.pipeline
        reader!.read(unread.map(\.id), maxSize: options.inMemoryLimit) { i, result in
            guard case .object(let type, let bytes) = result else {
                let why = BlobWorkers.outcome(of: result, maxSize: options.inMemoryLimit).issue ?? "not read"
                issues.append(ScanIssue(path: "\(HistoryRun.displayPath(unread[i].path)) in commit \(parent.hex)",
                                        message: "blob \(unread[i].id.hex): \(why); not compared with merge \(merge.hex)"))
                return
            }
            if type != "blob" { return }
            // Scanned as the blob workers scan every blob (no path or commit: the superset a
            // cached blob holds: path and commit conditions stay pending), then hashed. A rule that gives up
            // here can only make the merge's finding stay reported; the blob's own commit
            // reports the failure.
            let outcome = BlobWorkers.scan(bytes, with: front, found: BlobWorkers.Found(pipeline: pipeline))
            var findings = outcome.entry.findings
            let unhashed = findings.indices.filter { outcome.needsHash[$0] }
            let hashes = pipeline.scanner.secretHashes(unhashed.map {
                UnsafeRawBufferPointer(rebasing: bytes[findings[$0].byteOffset..<(findings[$0].byteOffset + Int(findings[$0].byteLength))])
            })
            for (k, h) in zip(unhashed, hashes) { findings[k].secretHash = UInt64(h, radix: 16) ?? 0 }
            let found = findings.map(\.key)
            memo[unread[i].id] = found
            keys.formUnion(found)
        }
        return (keys, issues)
    }
}
