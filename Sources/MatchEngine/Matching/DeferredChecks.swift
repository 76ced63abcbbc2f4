/// What the matcher could not decide about a match from the bytes alone, handed to the filter
/// stage that follows it (`MatchMode.scan`: the scan pipeline's). The matcher knows bytes and
/// rules only: a rule's own condition (`Rule.appliesConditionally`) and an allowlist with
/// conditions besides its byte checks (`Allowlist.decidedByBytes`) are left to that stage, with
/// what their byte checks (regexes, stopwords) gave while the bytes were at hand. So a buffer
/// scanned once can be settled for every place it appears at without being read again.
public struct DeferredChecks: Sendable, Hashable {
    /// One allowlist, in the order the matcher meets them (the rule's own, then the global
    /// ones), whose verdict needs more than the bytes, met before the verdict was settled.
    public struct Entry: Sendable, Hashable {
        /// A rule's own allowlist (what it allows is dropped), else a global one (allowlisted).
        public var isRuleList: Bool
        /// Its index in `rule.allowlists` or in `RuleSet.allowlists`.
        public var index: Int
        /// How many of its byte checks (regexes, stopwords) are set, and how many passed.
        public var byteChecks: UInt8
        public var bytePasses: UInt8

        /// For a record read back (the scanner's per-blob cache).
        public init(isRuleList: Bool, index: Int, byteChecks: UInt8, bytePasses: UInt8) {
            self.isRuleList = isRuleList
            self.index = index
            self.byteChecks = byteChecks
            self.bytePasses = bytePasses
        }
    }

    public enum Outcome: Sendable, Hashable { case report, drop, allowlisted }

    public var entries: [Entry] = []
    /// What the match is when none of `entries` allows it.
    public var otherwise: Outcome = .report
    /// The rule's own condition is still to be checked (`Rule.appliesConditionally`).
    public var ruleCondition = false

    /// For a record read back (the scanner's per-blob cache).
    public init(entries: [Entry] = [], otherwise: Outcome = .report, ruleCondition: Bool = false) {
        self.entries = entries
        self.otherwise = otherwise
        self.ruleCondition = ruleCondition
    }
}

extension Allowlist {
    /// The byte half of its verdict: how many byte checks (regexes, stopwords) it has and how
    /// many pass, or the message of a pattern that gave up. The filter stage adds its other
    /// checks to these.
    public func byteChecks(_ subject: AllowlistSubject, scratch: MatchScratch) -> Result<(checks: UInt8, passes: UInt8), AllowlistFailure> {
        var checks: UInt8 = 0, passes: UInt8 = 0
        if !regexes.isEmpty {
            checks += 1
            let target: UnsafeRawBufferPointer
            switch regexTarget {
            case .secret: target = subject.secret
            case .match: target = subject.match
            case .line: target = subject.line
            }
            for regex in regexes {
                switch regex.firstMatch(in: target, from: 0, scratch: scratch) {
                case .match: passes += 1
                case .noMatch: continue
                case .failure(_, let message): return .failure(AllowlistFailure(message: message))
                }
                break
            }
        }
        if !stopwords.isEmpty {
            checks += 1
            if stopwords.contains(where: { ByteSearch.containsCaseInsensitive(subject.secret, $0) }) { passes += 1 }
        }
        return .success((checks, passes))
    }

    /// Its verdict when no filter stage follows the matcher (`MatchMode.defers` off), given
    /// what the byte half gave: the other conditions are unmet, so with OR a passing byte check
    /// allows, and with AND nothing does.
    func verdictWithOthersUnmet(bytePasses: UInt8) -> Bool { condition == .or && bytePasses > 0 }
}

/// A pattern of an allowlist gave up (PCRE2's match or depth limit).
public struct AllowlistFailure: Error { public var message: String }
