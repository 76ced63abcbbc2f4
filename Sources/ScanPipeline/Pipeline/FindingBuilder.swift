import ScanCore
import MatchEngine

/// Makes every `Finding`, whatever the input: rule, location and secret hash in, the one
/// fingerprint (`SecretHasher.fingerprint(rule:location:secretHash:)`) computed, and the
/// suppressions applied in the pipeline's order (allowlist or inline marker, decided
/// earlier and handed in; then the baseline: keyshape fingerprints, then gitleaks' entries
/// naming rule, path, line and commit), each counted, never dropped silently. Every consumer
/// of findings (reports, baselines written, the datastore) sees the same suppression.
/// One secret is one finding: a second generic rule reporting the very bytes a generic rule
/// already reported in the same input is not a second finding (`genericReported`).
/// One per scanner (not shared between threads).
struct FindingBuilder {
    let baseline: Set<String>
    /// gitleaks' baselines (`.gitleaksignore` lines, a gitleaks JSON report): places, not
    /// fingerprints, so they are checked against the finding made.
    let baselineEntries: [BaselineEntry]
    var suppressed: SuppressionTally
    /// The places of the current input (one provenance) where a generic rule's finding was
    /// reported. Generic rules read names (`secret`, `api_key`, `password`), and a name may
    /// hold two (`pinata_secret_api_key = "…"` is generic-secret's and generic-api-key's):
    /// the second rule's finding of the same bytes at the same place is left out, whatever
    /// the command, as the secret is reported. Only a reported finding counts here, so a
    /// generic rule whose allowlist or the baseline suppresses it never hides another's.
    /// Cleared when the input changes: findings of one input arrive together.
    private var genericReported: Set<Location> = []
    private var genericInput: Provenance?

    init(options: ScanOptions) {
        baseline = options.baseline
        baselineEntries = options.baselineEntries
        suppressed = SuppressionTally(keep: options.keepSuppressed)
    }

    /// - Returns: the finding to report, or nil when it is suppressed (counted, and kept
    ///   when the run keeps suppressed findings).
    /// - Parameter checksum: the rule's checksum verdict on the secret (nil: none applies),
    ///   which sets the finding's confidence.
    mutating func build(rule: Rule, location: Location, secretHash: String, suppression: Suppression?, checksum: Bool? = nil) -> Finding? {
        let generic = rule.isGeneric
        if generic {
            if genericInput != location.provenance {
                genericReported.removeAll(keepingCapacity: true)
                genericInput = location.provenance
            }
            if genericReported.contains(location) { return nil }
        }
        guard let made = decide(rule: rule, location: location, secretHash: secretHash, suppression: suppression, checksum: checksum) else { return nil }
        if generic { genericReported.insert(location) }
        return made
    }

    private mutating func decide(rule: Rule, location: Location, secretHash: String, suppression: Suppression?, checksum: Bool?) -> Finding? {
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, location: location, secretHash: secretHash)
        let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: secretHash, location: location,
                                confidence: rule.confidence(checksum: checksum), checksum: checksum, severity: rule.effectiveSeverity) }
        if let suppression { suppressed.add(suppression, finding); return nil }
        if baseline.contains(fingerprint) { suppressed.add(.baseline, finding); return nil }
        if !baselineEntries.isEmpty {
            let made = finding()
            if baselineEntries.contains(where: { $0.covers(made) }) { suppressed.add(.baseline, { made }); return nil }
            return made
        }
        return finding()
    }
}

extension Location {
    /// The location of a pipeline finding: `provenance` (the finding's own steps already
    /// applied), its span moved by `offset` (where the buffer it was found in starts in
    /// the input), its text position or binary place.
    init(_ f: BufferFinding, provenance: Provenance, offset: Int = 0) {
        self.init(provenance, byteOffset: offset + f.range.lowerBound, byteLength: f.range.count)
        binary = f.binary
        if f.binary == nil, let line = f.line {
            setText(line: line, column: f.column ?? 1, endLine: f.endLine ?? line, endColumn: f.endColumn ?? f.column ?? 1)
        }
    }
}
