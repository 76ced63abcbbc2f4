import Foundation
import ScanCore

/// A detection rule: data with its own examples, loaded from TOML.
public struct Rule: Sendable {
    public var id: String
    public var description: String
    public var regex: Regex
    /// Which capture group is the secret; nil means the first non-empty group, or the
    /// whole match when the pattern has no groups (gitleaks' behaviour).
    public var secretGroup: Int?
    /// Shannon entropy (bits per byte) the secret must exceed (strictly, as in gitleaks).
    public var entropy: Double?
    /// The entropy a secret of hex digits alone (one case) must exceed instead of `entropy`
    /// (`hexEntropy`, keyshape's own key): hex holds 4 bits a character at most, and a random
    /// 32-digit key measures 3.61 on average, at or under 3.5 one time in 5.4 (24 digits: one
    /// in 1.8; 20,000 random values of each length), so a threshold written for mixed
    /// alphanumerics would drop a fifth of the hex keys it was meant to report.
    public var hexEntropy: Double?
    /// How far under the most its length allows (log2 of the length: every byte different) a
    /// secret's entropy may fall (`shortEntropyMargin`, keyshape's own key): the gate is never
    /// more than `log2(length) - margin`, which is under `entropy = 3.5` for secrets of 17 bytes
    /// or fewer. A 12-character password measures 3.58 at most, and a random one of letters
    /// and digits 3.42 (median of 20,000), so `entropy = 3.5` alone drops most of them; with a
    /// margin of 0.6, 1 random value in 100 of 8 to 16 characters falls under.
    public var shortEntropyMargin: Double?
    /// Lowercase literals; the rule runs only on buffers containing one of them.
    public var keywords: [String]
    /// Keywords shorter than `rules check`'s bar (4 characters, or no letter or digit) that the
    /// rule's author vouches for (`distinctiveKeywords`, lowercased): a token's own prefix such
    /// as `sg.` or `hf_`, rare in code although short. Read only by the checker.
    public var distinctiveKeywords: [String] = []
    /// Only paths matching this run the rule.
    public var path: Regex?
    public var tags: [String]
    public var allowlists: [Allowlist]
    /// Texts with one secret marked «like this» that the rule must find, exactly there.
    public var examples: [String]
    /// Texts no rule of the pack may report.
    public var negativeExamples: [String]
    public var source: SourcePosition
    /// How sure a match is to be a real credential, as the rule's author wrote it (`confidence`);
    /// nil: the default for its kind (see `defaultConfidence`).
    public var confidence: Confidence?
    /// A checksum the format documents (`checksum = "github-crc32"`): where it holds the
    /// finding is high confidence, where it fails low.
    public var checksum: Checksum?
    /// How bad a leak is (`severity`); nil: high, or medium for a generic rule.
    public var severity: Severity?
    /// What to do about a leak (`remediation`): where to revoke it, one or two sentences.
    public var remediation: String?
    /// The provider's documentation of the credential (`docs`, a URL).
    public var docs: String?
    /// gitleaks' path-only rule (`path` and no `regex`): a file whose path matches is itself
    /// the finding (a `.p12` holds keys whatever its bytes look like). Its `regex` is a
    /// placeholder the matcher never runs.
    public var pathOnly = false
    /// gitleaks' `[[rules.required]]`: this rule reports a match only when each of these
    /// rules also matches in the same buffer, within the window each one gives.
    public var required: [RequiredRule] = []
    /// gitleaks' `skipReport`: the rule only serves as another rule's required component
    /// and reports nothing itself.
    public var skipReport = false
    /// The rule came from the scanned tree (its `.gitleaks.toml` or `.keyshape.toml`), which
    /// may be hostile: it runs on the buffer with every span a trusted rule (builtin, `--rules`,
    /// the user's config) matched blanked out, and its matches never touch those spans, so a set
    /// of such rules cannot spell out a value through which of them fire (`Matcher.RulePass`).
    public var fromRepository = false
    /// `override = true` (keyshape's): this rule replaces a loaded rule of the same id on
    /// purpose (a `--rules` file's own version of a builtin rule); without it a replacement is
    /// warned about.
    public var overrides = false
    /// `kind = "named-credential"` (keyshape's): the rule is the structural pass for named
    /// credentials, run near its keywords instead of a regex (its `regex` is a placeholder the
    /// matcher never runs); its `providers` list is the pass's provider names.
    public var namedCredentials: NamedCredentialPass? = nil
    /// `[[rules.providerShapes]]` (keyshape's, on the named-credential rule): providers'
    /// documented value shapes, which every generic rule's match under a provider's name must
    /// fit (`ProviderShapes`).
    public var providerShapes: [ProviderShape] = []

    public init(id: String, description: String, regex: Regex, secretGroup: Int? = nil, entropy: Double? = nil,
                keywords: [String] = [], path: Regex? = nil, tags: [String] = [], allowlists: [Allowlist] = [],
                examples: [String] = [], negativeExamples: [String] = [], source: SourcePosition = SourcePosition(file: "", line: 0)) {
        self.id = id
        self.description = description
        self.regex = regex
        self.secretGroup = secretGroup
        self.entropy = entropy
        self.keywords = keywords
        self.path = path
        self.tags = tags
        self.allowlists = allowlists
        self.examples = examples
        self.negativeExamples = negativeExamples
        self.source = source
    }
}

extension Rule {
    /// The entropy `secret` must exceed (strictly), nil for none: `entropy`, or `hexEntropy`
    /// for hex digits alone, lowered for a short secret by `shortEntropyMargin`.
    public func entropyGate(for secret: UnsafeRawBufferPointer) -> Double? {
        guard let entropy else { return nil }
        var gate = entropy
        if let hexEntropy, Entropy.isHexDigits(secret) { gate = hexEntropy }
        if let shortEntropyMargin, secret.count > 0 {
            gate = Swift.min(gate, log2(Double(secret.count)) - shortEntropyMargin)
        }
        return gate
    }

    /// A generic rule: an id starting `generic` or a `generic` tag (secret-named assignments,
    /// credentials in URLs: no provider's format). It gets low confidence and medium severity
    /// by default, and its match yields to a provider rule's match of the same secret
    /// (`GenericYield`).
    public var isGeneric: Bool { id.hasPrefix("generic") || tags.contains("generic") }

    /// Without an explicit `confidence`: high for a checksummed format, low for a generic
    /// rule (an id or tag saying `generic`: secret-named assignments, high-entropy strings),
    /// medium otherwise (the `[defaults]` of a rule file sets its family's, such as high for
    /// prefixed provider formats).
    public var defaultConfidence: Confidence {
        if let confidence { return confidence }
        if checksum != nil { return .high }
        if isGeneric { return .low }
        return .medium
    }

    /// Without an explicit `severity`: high (what every rule was before rules had one), medium
    /// for a generic rule.
    public var effectiveSeverity: Severity {
        if let severity { return severity }
        return isGeneric ? .medium : .high
    }

    /// A finding's confidence: the checksum decides where there is one that applies.
    public func confidence(checksum holds: Bool?) -> Confidence {
        switch holds {
        case true?: return .high
        case false?: return .low
        case nil: return defaultConfidence
        }
    }
}

/// One `[[rules.required]]` entry: a rule that must also match near the primary match.
/// `withinLines` bounds the distance between the two matches' first lines, `withinColumns`
/// the distance between their first columns (both: a rectangle; neither: anywhere in the
/// buffer), as gitleaks measures them.
public struct RequiredRule: Sendable, Hashable {
    public var id: String
    public var withinLines: Int?
    public var withinColumns: Int?

    public init(id: String, withinLines: Int? = nil, withinColumns: Int? = nil) {
        self.id = id
        self.withinLines = withinLines
        self.withinColumns = withinColumns
    }
}

/// Where a rule or setting was written, so errors can point at it.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
