import GitHistory
import ScanCore
import ScanRules

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
    /// findings of rules whose verdict depends on those are checked again with the real ones
    /// (ContextVerifier).
    var suppression: Suppression?
    /// The rule's checksum on the secret (nil: none applies).
    var checksum: Bool?

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
        checksum = f.checksum
    }

    var hashText: String {
        let s = String(secretHash, radix: 16)
        return String(repeating: "0", count: max(0, 16 - s.count)) + s
    }

    /// Identity of the secret, for "was it already there". Suppressed and reported findings
    /// never share a key (their hashes may come from different functions, see
    /// `BufferScanner.identities`): a secret inline-allowed in the parent and unmarked in the
    /// child is new there, as it was before suppressed findings were kept at all.
    var key: SecretKey { SecretKey(ruleIndex: ruleIndex, secretHash: secretHash, suppression: suppression) }

    func location(kind: Location.Kind, path: String?) -> Location {
        var l = Location(kind: kind, path: path, byteOffset: byteOffset, byteLength: Int(byteLength))
        if line > 0 {
            l.line = Int(line)
            l.column = Int(column)
            l.endLine = Int(endLine)
            l.endColumn = Int(endColumn)
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

/// Which rules depend on more than the blob's bytes (a `path` filter, or an allowlist with
/// paths or commits). A blob is scanned once with no path, which gives a superset of what
/// any path would give; findings of these rules are re-checked with the real path and
/// commit before they are reported.
struct ContextSensitivity {
    let rules: [Bool]
    let usesCommits: [Bool]

    init(_ set: RuleSet) {
        var sensitive: [Bool] = []
        var commits: [Bool] = []
        for rule in set.rules {
            let lists = rule.allowlists + set.allowlists.filter { $0.targetRules.isEmpty || $0.targetRules.contains(rule.id) }
            sensitive.append(rule.path != nil || lists.contains { !$0.paths.isEmpty || !$0.commits.isEmpty })
            commits.append(lists.contains { !$0.commits.isEmpty })
        }
        rules = sensitive
        usesCommits = commits
    }

    var any: Bool { rules.contains(true) }
}
