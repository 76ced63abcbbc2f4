import ScanCore
import ScanRules

/// Makes every `Finding`, whatever the input: rule, location and secret hash in, the one
/// fingerprint (`SecretHasher.fingerprint(rule:location:secretHash:)`) computed, and the
/// suppressions applied in the pipeline's order (allowlist or inline marker, decided
/// earlier and handed in; then the baseline), each counted, never dropped silently.
/// One per scanner (not shared between threads).
struct FindingBuilder {
    let baseline: Set<String>
    var suppressed: SuppressionTally

    init(options: ScanOptions) {
        baseline = options.baseline
        suppressed = SuppressionTally(keep: options.keepSuppressed)
    }

    /// - Returns: the finding to report, or nil when it is suppressed (counted, and kept
    ///   when the run keeps suppressed findings).
    mutating func build(rule: Rule, location: Location, secretHash: String, suppression: Suppression?) -> Finding? {
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, location: location, secretHash: secretHash)
        let finding = { Finding(rule: rule.id, description: rule.description, fingerprint: fingerprint, secretHash: secretHash, location: location) }
        if let suppression { suppressed.add(suppression, finding); return nil }
        if baseline.contains(fingerprint) { suppressed.add(.baseline, finding); return nil }
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
