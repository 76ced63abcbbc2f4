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
    let baselineChecks: Set<String>
    let legacyBaseline: Set<String>
    let settledPairs: Set<String>
    /// Whether findings carry a baseline check (`Finding.baselineCheck`, for the baseline a run
    /// writes and for `baselineChecks`).
    let checksValues: Bool
    /// The secret hash's key is the user's or the datastore's (see `SecretHasher.fingerprint`).
    let keyOutlivesRun: Bool
    /// The ordinals of the current input's values (see `FingerprintOrdinals`).
    private var ordinals = FingerprintOrdinals()
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
        baselineChecks = options.baselineChecks
        legacyBaseline = options.legacyBaseline
        settledPairs = options.settledPairs
        checksValues = options.baselineKey != nil
        keyOutlivesRun = options.secretKeying.source != .run
        baselineEntries = options.baselineEntries
        suppressed = SuppressionTally(keep: options.keepSuppressed)
    }

    /// - Returns: the finding to report, or nil when it is suppressed (counted, and kept
    ///   when the run keeps suppressed findings).
    /// - Parameter checksum: the rule's checksum verdict on the secret (nil: none applies),
    ///   which sets the finding's confidence.
    /// - Parameters:
    ///   - tags: the value's checks for baselines (`ValueTags`), when the run uses one.
    ///   - ordinal: the value's ordinal at its place (`FingerprintOrdinals`) when the caller
    ///     hands on only some of an input's findings (history: those new at a commit; staged:
    ///     those on added lines); nil: counted here, over the input's findings as they come.
    ///   - confidence, provider: the named-credential pass's grade of the match (`RuleMatch`):
    ///     its confidence replaces the rule's, and its provider label names the provider in the
    ///     description, from the rule's fixed list.
    mutating func build(rule: Rule, location: Location, secretHash: String, suppression: Suppression?, checksum: Bool? = nil,
                        confidence: Confidence? = nil, provider: Int? = nil,
                        tags: ValueTags = ValueTags(), ordinal: Int? = nil) -> Finding? {
        let input = location.provenance.undecoded
        if currentInput != input {
            reportedPlaces.removeAll(keepingCapacity: true)
            ordinals.reset()
            currentInput = input
        }
        let ordinal = ordinal ?? ordinals.ordinal(rule: rule.id, location: location, identity: secretHash)
        let place = ReportedPlace(offset: location.byteOffset, length: location.byteLength, binary: location.binary)
        let family = FindingBuilder.family(rule)
        if rule.isGeneric || location.provenance.isDecoded, reportedPlaces[place]?.contains(family) == true { return nil }
        guard let made = decide(rule: rule, location: location, secretHash: secretHash, suppression: suppression, checksum: checksum,
                                confidence: confidence, provider: provider, tags: tags, ordinal: ordinal) else { return nil }
        reportedPlaces[place, default: []].insert(family)
        return made
    }

    private mutating func decide(rule: Rule, location: Location, secretHash: String, suppression: Suppression?, checksum: Bool?,
                                 confidence: Confidence?, provider: Int?, tags: ValueTags, ordinal: Int) -> Finding? {
        let fingerprint = SecretHasher.fingerprint(rule: rule.id, location: location, ordinal: ordinal,
                                                   keyedHash: keyOutlivesRun ? secretHash : nil)
        let check = checksValues ? tags.baseline.map { SecretHasher.baselineCheck(tag: $0, rule: rule.id, location: location) } : nil
        let finding = { () -> Finding in
            let description = provider.flatMap { rule.namedCredentials?.description(provider: $0) } ?? rule.description
            var f = Finding(rule: rule.id, description: description, fingerprint: fingerprint, secretHash: secretHash, location: location,
                            confidence: confidence ?? rule.confidence(checksum: checksum), checksum: checksum, severity: rule.effectiveSeverity)
            f.baselineCheck = check
            return f
        }
        if let suppression { suppressed.add(suppression, finding); return nil }
        if baselined(fingerprint: fingerprint, check: check, secretHash: secretHash, tags: tags, rule: rule, location: location) {
            suppressed.add(.baseline, finding)
            return nil
        }
        if !baselineEntries.isEmpty {
            let made = finding()
            if baselineEntries.contains(where: { $0.covers(made) }) { suppressed.add(.baseline, { made }); return nil }
            return made
        }
        return finding()
    }
}

extension FindingBuilder {
    /// A v2 baseline entry with a value check matches the value at that rule and place; one
    /// without (written by hand from a report, or a path-only rule's) matches the fingerprint;
    /// a release 0.2 baseline matches 0.2's fingerprint of the value; the datastore's triage
    /// matches the fingerprint with the value's hash, so a decision on one value does not carry
    /// to another later found at the same place.
    func baselined(fingerprint: String, check: String?, secretHash: String, tags: ValueTags, rule: Rule, location: Location) -> Bool {
        if let check, baselineChecks.contains(check) { return true }
        if baseline.contains(fingerprint) { return true }
        if !settledPairs.isEmpty, settledPairs.contains(fingerprint + "/" + secretHash) { return true }
        if !legacyBaseline.isEmpty, let legacy = tags.legacy,
           legacyBaseline.contains(SecretHasher.legacyFingerprint(rule: rule.id, location: location, legacyHash: legacy)) { return true }
        return false
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
