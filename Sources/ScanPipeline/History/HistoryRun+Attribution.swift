import GitHistory
import ScanCore
import MatchEngine

/// Attribution: which commit a cached finding belongs to, and its verdict at that place.
extension HistoryRun {
    /// Reports each secret that `c` makes appear at a path: in the new blob, and held by no
    /// parent there. Where a parent lacks the path, the secret is also not new when a blob
    /// at a path that `c` deletes relative to that parent held it: that is a rename, with or
    /// without edits, found with one set lookup instead of git's similarity-based rename
    /// detection (`-M`, which kept `git diff-tree` at one full core for a whole git.git
    /// history). A copy to a second path, the original kept, is still new there, as it was
    /// with `-M`. Where the two rules part: `-M` pairs a deleted file with an added one only
    /// when at least half their lines agree, so a key moved out of a deleted file into a
    /// new, mostly different one was reported again; now it is not, because the repository
    /// held that key the moment before. A path the parent already had (modified, not
    /// added) is compared with the parent's blob at that path only, as before, so a key
    /// moved into an existing file is new there.
    mutating func attribute(_ c: CommitChanges) {
        stats.commits += 1
        scanner.progress.commitsDone.add(1, ordering: .relaxed)  // the progress line's count (ProgressLine)
        // Per parent, the secrets the commit's deletions held, worked out on first need.
        var deleted: [Int: Set<SecretKey>] = [:]
        for var ch in c.changes where !ch.isDeletion {
            ch.path = names.vet(ch.path)
            if ch.isGitlink {
                let path = HistoryRun.displayPath(ch.path)
                if gitlinkPaths.insert(path).inserted {
                    notes.append("\(path): submodule (gitlink) entry, first seen in commit \(c.commit.id.hex); its history is not part of this repository and was skipped")
                }
                continue
            }
            // The path stage: a path-only rule reports the commit that adds the path (absent
            // from every parent), whatever the blob holds.
            if !scanner.ruleSet.pathOnlyRules.isEmpty, ch.oldBlobs.allSatisfy(\.isZero) {
                reportPathOnlyRules(c, ch)
            }
            guard let entry = cache[ch.newBlob], !entry.findings.isEmpty else { continue }
            var before = Set<SecretKey>()
            for old in ch.oldBlobs where !old.isZero {
                for f in cache[old]?.findings ?? [] { before.insert(f.key) }
            }
            var fresh = entry.findings.filter { !before.contains($0.key) }
            for (i, old) in ch.oldBlobs.enumerated() where old.isZero && !fresh.isEmpty {
                if deleted[i] == nil { deleted[i] = deletedSecrets(c, parent: i) }
                fresh.removeAll { deleted[i]!.contains($0.key) }
            }
            if fresh.isEmpty { continue }
            let path = HistoryRun.displayPath(ch.path)
            let provenance = Provenance.commitBlob(.init(commit: c.commit.id.hex, author: c.commit.author, email: c.commit.email,
                                                         date: c.commit.date, blob: ch.newBlob.hex, path: ch.path))
            // Every finding of the blob that stands at this path counts for the ordinals, the
            // ones already there before this commit too, as `scan` of the file counts them.
            var ordinals = FingerprintOrdinals()
            var verdicts: [Int: (kind: Suppression?, ordinal: Int)] = [:]
            for (i, f) in entry.findings.enumerated() {
                guard let suppression = settle(f, blob: ch.newBlob, path: path, commit: c.commit.id.hex) else { continue }
                let rule = scanner.ruleSet.rules[Int(f.ruleIndex)]
                verdicts[i] = (suppression.kind, ordinals.ordinal(rule: rule.id, location: f.location(provenance), identity: f.hashText))
            }
            let freshKeys = Set(fresh.map(\.key))
            for (i, f) in entry.findings.enumerated() where freshKeys.contains(f.key) {
                guard let verdict = verdicts[i] else { continue }
                let rule = scanner.ruleSet.rules[Int(f.ruleIndex)]
                if let finding = builder.build(rule: rule, location: f.location(provenance), secretHash: f.hashText, suppression: verdict.kind,
                                               checksum: f.checksum, confidence: f.confidence, provider: f.provider, tags: f.tags, ordinal: verdict.ordinal) {
                    findings.append(finding)
                }
            }
        }
    }

    /// The path-only rules' findings for a path `c` adds (`PathOnlyRules`).
    mutating func reportPathOnlyRules(_ c: CommitChanges, _ ch: TreeChange) {
        let provenance = Provenance.commitBlob(.init(commit: c.commit.id.hex, author: c.commit.author, email: c.commit.email,
                                                     date: c.commit.date, blob: ch.newBlob.hex, path: ch.path))
        let path = HistoryRun.displayPath(ch.path)
        var failures: [RuleFailure] = []
        let hashes = pathHashes
        findings += PathOnlyRules.findings(scanner.ruleSet, provenance: provenance, commit: c.commit.id.hex, scratch: scratch,
                                           hash: { hashes.hash($0) }, builder: &builder, onFailure: { failures.append($0) })
        for failure in failures {
            let text = failure.describe(ruleId: scanner.ruleSet.rules[failure.ruleIndex].id, unit: "file")
            if settleFailures.insert(path + "\u{0}" + text).inserted { issues.append(ScanIssue(path: path, message: text)) }
        }
    }

    /// The secrets held by the blobs `c` deletes relative to its parent `i`. A single-parent
    /// commit's deletions are in its own changes, their blobs read with the commit's other
    /// blobs; a merge's are asked of git (`MergeDeletions`). A root commit deletes nothing.
    mutating func deletedSecrets(_ c: CommitChanges, parent i: Int) -> Set<SecretKey> {
        guard c.commit.parents.indices.contains(i) else { return [] }
        if c.commit.parents.count == 1 {
            var keys = Set<SecretKey>()
            for ch in c.changes where ch.isDeletion {
                for old in ch.oldBlobs where !old.isZero {
                    for f in cache[old]?.findings ?? [] { keys.insert(f.key) }
                }
            }
            return keys
        }
        let known = cache
        let found = mergeDeletions.secrets(merge: c.commit.id, parent: c.commit.parents[i], known: { known[$0] })
        issues += found.issues
        return found.keys
    }

    /// A cached finding's verdict at one place: nil when a path or commit condition drops
    /// it there (a rule's `path` filter, a rule allowlist), else its suppression (nil kind:
    /// reported). Settled from what the blob's one scan recorded (`CachedFinding.pending`),
    /// so no blob is read again for it.
    mutating func settle(_ f: CachedFinding, blob: ObjectID, path: String?, commit: String?) -> (kind: Suppression?, Void)? {
        guard let pending = f.pending else { return (f.suppression, ()) }
        var failures: [RuleFailure] = []
        let outcome = scanner.ruleSet.settle(pending, ruleIndex: Int(f.ruleIndex), path: path, commit: commit, scratch: scratch,
                                             onFailure: { failures.append($0) })
        for failure in failures {
            let text = failure.describe(ruleId: scanner.ruleSet.rules[Int(f.ruleIndex)].id, unit: "blob")
            if settleFailures.insert(blob.hex + "\u{0}" + (path ?? "") + "\u{0}" + text).inserted {
                issues.append(ScanIssue(path: path ?? "", message: "blob \(blob.hex): " + text))
            }
        }
        switch outcome {
        case .drop: return nil
        // An allowlist outranks an inline marker (the pipeline's order).
        case .allowlisted: return (.allowlist, ())
        case .report: return (f.suppression, ())
        }
    }
}
