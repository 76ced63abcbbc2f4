import ScanCore

/// The structural pass for named credentials, as a rule of the pack (`kind = "named-credential"`
/// in a rule file, instead of `regex`): near the rule's keyword hits it reads (name, value)
/// pairs by syntax (`NamedCredentialReader`), scores the name (`CredentialNameScorer`) and the
/// value (`CredentialValueScorer`), and reports each pair whose value is a credential as a
/// `RuleMatch` of the rule, so allowlists, inline allows, baselines, fingerprints and
/// `GenericYield` apply as to any rule. Each match carries its confidence (medium for a random
/// value under a strong name, low for a weak password in a password slot or a weaker name)
/// and, when the name named a provider, its index in `providers`: the finding's description
/// names the provider from that list, never from the scanned text.
public struct NamedCredentialPass: Sendable {
    /// The rule key that selects the pass (`kind = "named-credential"`).
    public static let kind = "named-credential"
    /// Provider names, as the rule file lists them (`providers`): data, printed as written.
    public let providers: [String]
    let names: CredentialNameScorer

    public init(providers: [String]) {
        self.providers = providers
        names = CredentialNameScorer(providers: providers)
    }

    /// The description of a match labelled with provider `index`: "MapQuest credential (named)".
    public func description(provider index: Int) -> String? {
        index >= 0 && index < providers.count ? "\(providers[index]) credential (named)" : nil
    }

    /// One pair found: its value (the secret), the whole pair, its confidence and provider.
    public struct Found: Sendable, Equatable {
        public var secret: Range<Int>
        public var match: Range<Int>
        public var confidence: Confidence
        public var provider: Int?
    }

    /// The pairs whose name starts in one of `spans` (sorted, disjoint), in order, none
    /// overlapping an earlier one, appended to `found`. `memo`, when given, is this pass's own
    /// (`CredentialNameMemo`): the same findings, the names scored once.
    func scan(_ buffer: UnsafeRawBufferPointer, spans: [Range<Int>], memo: CredentialNameMemo?, into found: inout [Found]) {
        let bytes = buffer.bindMemory(to: UInt8.self)
        let reader = NamedCredentialReader(buffer: bytes, names: names, memo: memo)
        var candidates: [NamedCandidate] = []
        for span in spans { reader.read(span: span, into: &candidates) }
        var lastEnd = 0
        for c in candidates where c.match.lowerBound >= lastEnd {
            lastEnd = c.match.upperBound
            found.append(Found(secret: c.value, match: c.match, confidence: c.confidence, provider: c.name.provider))
        }
    }

    public func scan(_ buffer: UnsafeRawBufferPointer, spans: [Range<Int>], into found: inout [Found]) {
        scan(buffer, spans: spans, memo: nil, into: &found)
    }

    public func scan(_ buffer: UnsafeRawBufferPointer, spans: [Range<Int>], onFound: (Found) -> Void) {
        var found: [Found] = []
        scan(buffer, spans: spans, into: &found)
        for f in found { onFound(f) }
    }

    /// The pairs of a whole text, for tests and `rules check`.
    public func scan(_ text: String) -> [(secret: String, confidence: Confidence, provider: String?)] {
        var bytes = Array(text.utf8)
        var out: [(String, Confidence, String?)] = []
        bytes.withUnsafeMutableBytes { raw in
            scan(UnsafeRawBufferPointer(raw), spans: [0..<raw.count]) { f in
                let s = String(decoding: raw[f.secret], as: UTF8.self)
                out.append((s, f.confidence, f.provider.map { providers[$0] }))
            }
        }
        return out
    }
}
