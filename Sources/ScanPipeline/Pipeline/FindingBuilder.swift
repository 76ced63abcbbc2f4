import ScanCore
import MatchEngine

/// Makes every `Finding`, whatever the input: rule, location and secret hash in, the one
/// fingerprint (`SecretHasher.fingerprint(rule:location:secretHash:)`) computed, and the
/// suppressions applied in the pipeline's order (allowlist or inline marker, decided
/// earlier and handed in; then the baseline: keyshape fingerprints, then gitleaks' entries
/// naming rule, path, line and commit), each counted, never dropped silently. Every consumer
/// of findings (reports, baselines written, the datastore) sees the same suppression.
/// One secret is one finding: a second generic rule reporting the bytes a generic rule already
/// reported at the same place, or the same secret found again in its decoded text by a rule of
/// the same family, is not a second finding (`reportedPlaces`).
/// One per scanner (not shared between threads).
struct FindingBuilder {
    let baseline: Set<String>
    /// gitleaks' baselines (`.gitleaksignore` lines, a gitleaks JSON report): places, not
    /// fingerprints, so they are checked against the finding made.
    let baselineEntries: [BaselineEntry]
    var suppressed: SuppressionTally
    /// The places of the current input (its provenance without decoded steps: a decoded
    /// finding is reported at the encoded span of the same buffer) where a finding was
    /// reported, with the families of the rules that reported it (`family`). One secret is
    /// one finding: a later finding of the same bytes at the same place is left out when a
    /// rule of its family already reported them and it is generic (two generic rules read
    /// one name: `pinata_secret_api_key = "…"` is generic-secret's and generic-api-key's) or
    /// found in decoded text (a kubeconfig's `client-key-data` is private-key-base64's as it
    /// stands and private-key's decoded). Rules of different families both stand (a docker
    /// `auth` field is a registry credential, and the GitHub token decoded from it is
    /// GitHub's to revoke). Only a reported finding counts, so a finding its allowlist or the
    /// baseline suppresses never hides another. Cleared when the input changes: findings of
    /// one input arrive together.
    private var reportedPlaces: [ReportedPlace: Set<String>] = [:]
    private var currentInput: Provenance?

    private struct ReportedPlace: Hashable {
        var offset: Int
        var length: Int
        var binary: BinaryPlace?
    }

    /// What a rule reports, for `reportedPlaces`: every generic rule is one family; a
    /// provider rule's is its id's first word, the provider (`private` for private-key and
    /// private-key-base64, `github` for every GitHub token; tags are categories, `cloud`,
    /// `vcs`, too wide for this).
    static func family(_ rule: Rule) -> String {
        rule.isGeneric ? "generic" : String(rule.id.prefix { $0 != "-" })
    }

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
        let input = location.provenance.undecoded
        if currentInput != input {
            reportedPlaces.removeAll(keepingCapacity: true)
            currentInput = input
        }
        let place = ReportedPlace(offset: location.byteOffset, length: location.byteLength, binary: location.binary)
        let family = FindingBuilder.family(rule)
        if rule.isGeneric || location.provenance.isDecoded, reportedPlaces[place]?.contains(family) == true { return nil }
        guard let made = decide(rule: rule, location: location, secretHash: secretHash, suppression: suppression, checksum: checksum) else { return nil }
        reportedPlaces[place, default: []].insert(family)
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
