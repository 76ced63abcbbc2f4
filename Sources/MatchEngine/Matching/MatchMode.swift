/// What a matcher's caller does with its matches, which decides what the matcher hands on.
/// One of a few named presets, fixed when the matcher is made: each caller says what it is,
/// not which switches it flips.
public struct MatchMode: Sendable, Hashable {
    /// Matches a global allowlist allows are handed on, marked `allowlisted`, instead of
    /// dropped: the scanner counts them.
    let reportsAllowlisted: Bool
    /// Placeholder values (see `Placeholder`) are dropped.
    let dropsPlaceholders: Bool
    /// A generic rule's match yields to a provider rule's match of the same secret
    /// (`GenericYield`), and the named-credential pass's to any other rule's (`NamedYield`).
    let genericsYield: Bool
    /// A filter stage follows the matcher (the scan pipeline's): what the bytes cannot decide
    /// (a rule's own condition, an allowlist with conditions besides its byte checks) is
    /// handed on in `RuleMatch.pending`. Without one it is decided here, those other
    /// conditions taken as unmet.
    let defers: Bool

    init(reportsAllowlisted: Bool, dropsPlaceholders: Bool, genericsYield: Bool, defers: Bool) {
        self.reportsAllowlisted = reportsAllowlisted
        self.dropsPlaceholders = dropsPlaceholders
        self.genericsYield = genericsYield
        self.defers = defers
    }

    /// The matcher alone, nothing after it: what a scan would report of the bytes, read
    /// without a place.
    public static let standalone = MatchMode(reportsAllowlisted: false, dropsPlaceholders: true, genericsYield: true, defers: false)
    /// Every scan (folder, history, staged, standard input, archive members): the pipeline's
    /// filter settles what is deferred and counts what is allowlisted.
    public static let scan = MatchMode(reportsAllowlisted: true, dropsPlaceholders: true, genericsYield: true, defers: true)
    /// `rules check` through the scan pipeline: as a scan, but each rule answers for its own
    /// examples, so no match yields to another rule's.
    public static let ruleExamples = MatchMode(reportsAllowlisted: true, dropsPlaceholders: true, genericsYield: false, defers: true)
    /// `rules check` with the matcher alone: each rule for its own examples, what an
    /// allowlist allows dropped.
    public static let ruleCheck = MatchMode(reportsAllowlisted: false, dropsPlaceholders: true, genericsYield: false, defers: false)
    /// Names vetted before they are printed: every trusted pattern's spans are read from
    /// `Matcher.trustedSpans`, whatever the checks after the pattern decide.
    public static let nameVetting = MatchMode(reportsAllowlisted: false, dropsPlaceholders: true, genericsYield: false, defers: false)
    /// The provider client's redaction: stand-in values are masked too (masking costs
    /// nothing), allowlisted ones are not.
    public static let redaction = MatchMode(reportsAllowlisted: false, dropsPlaceholders: false, genericsYield: true, defers: false)
}
