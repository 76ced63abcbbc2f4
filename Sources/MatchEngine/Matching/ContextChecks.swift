/// What the matcher could not decide about a match without the buffer's path or commit,
/// left to the scanner, which knows them (`RuleSet.settle`). The matcher knows bytes only
/// (`MatchMode.scan`): a rule's `path` filter and the allowlists with `paths` or
/// `commits` are evaluated here in two halves: their byte checks (regexes, stopwords)
/// when the match is made, while the bytes are at hand, and their path and commit
/// checks when the scanner settles the match. So a blob scanned once, without a path,
/// can be settled for every path and commit it appears at without reading it again.
public struct ContextChecks: Sendable, Hashable {
    /// One allowlist, in the order the matcher meets them (the rule's own, then the global
    /// ones), that depends on the path or the commit, met before the verdict was settled.
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
    /// The rule's `path` filter is still to be checked.
    public var rulePath = false

    /// For a record read back (the scanner's per-blob cache).
    public init(entries: [Entry] = [], otherwise: Outcome = .report, rulePath: Bool = false) {
        self.entries = entries
        self.otherwise = otherwise
        self.rulePath = rulePath
    }
}

extension Allowlist {
    /// Whether its verdict needs the path or the commit.
    var dependsOnContext: Bool { !paths.isEmpty || !commits.isEmpty }

    /// The byte half: how many byte checks it has and how many pass, or the message of a
    /// pattern that gave up.
    func byteChecks(_ subject: AllowlistSubject, scratch: MatchScratch) -> Result<(checks: UInt8, passes: UInt8), AllowlistFailure> {
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

    /// The context half, given what the byte half gave: the same verdict `verdict(_:scratch:)`
    /// gives with the path and commit in the subject.
    func contextVerdict(byteChecks: UInt8, bytePasses: UInt8, path: String?, commit: String?, scratch: MatchScratch) -> AllowlistVerdict {
        var checks = Int(byteChecks), passes = Int(bytePasses)
        if !commits.isEmpty {
            checks += 1
            if let c = commit, commits.contains(where: { !$0.isEmpty && c.hasPrefix($0) }) { passes += 1 }
        }
        if !paths.isEmpty {
            checks += 1
            if let p = path {
                for regex in paths {
                    switch regex.test(p, scratch: scratch) {
                    case .yes: passes += 1
                    case .no: continue
                    case .failed(let message): return .failed(message)
                    }
                    break
                }
            }
        }
        switch condition {
        case .or: return passes > 0 ? .allows : .doesNotAllow
        case .and: return checks > 0 && passes == checks ? .allows : .doesNotAllow
        }
    }
}

struct AllowlistFailure: Error { var message: String }

extension RuleSet {
    /// The scanner's half of a deferred match: the rule's path filter and the allowlists
    /// that depend on path or commit, in the order the matcher would have met them. A
    /// pattern that gives up is handed to `onFailure` and decides as the matcher does: a
    /// path filter as if the path matched, an allowlist as if it did not allow (fail closed).
    /// - Parameter path: nil for a buffer that has none (an unreachable blob): the path
    ///   filter then passes and path checks fail, as when the matcher had no path.
    public func settle(_ checks: ContextChecks, ruleIndex: Int, path: String?, commit: String?, scratch: MatchScratch,
                       onFailure: (RuleFailure) -> Void) -> ContextChecks.Outcome {
        let rule = rules[ruleIndex]
        if checks.rulePath, let pattern = rule.path, let path {
            switch pattern.test(path, scratch: scratch) {
            case .yes: break
            case .no: return .drop
            case .failed(let message): onFailure(RuleFailure(ruleIndex: ruleIndex, message: message, stage: .pathFilter))
            }
        }
        for entry in checks.entries {
            let list = entry.isRuleList ? rule.allowlists[entry.index] : allowlists[entry.index]
            switch list.contextVerdict(byteChecks: entry.byteChecks, bytePasses: entry.bytePasses, path: path, commit: commit, scratch: scratch) {
            case .allows: return entry.isRuleList ? .drop : .allowlisted
            case .doesNotAllow: continue
            case .failed(let message):
                onFailure(RuleFailure(ruleIndex: ruleIndex, message: message, stage: .allowlist))
                return .report
            }
        }
        return checks.otherwise
    }
}
