/// A rule that fired: which rule, and where the secret and the whole match are, as byte
/// ranges of the buffer. The engine's whole output; it holds no copy of the bytes.
public struct RuleMatch: Sendable, Hashable {
    public var ruleIndex: Int
    public var secret: Range<Int>
    public var match: Range<Int>
}

/// A rule that could not finish on a buffer (match or depth limit): the scan goes on and
/// reports it, so a catastrophic pattern costs a bounded time and never a silent miss.
public struct RuleFailure: Sendable, Hashable {
    public var ruleIndex: Int
    public var message: String
}

/// What the matcher knows of the buffer's origin, for path filters and allowlists.
public struct MatchContext: Sendable {
    public var path: String?
    public var commit: String?

    public init(path: String? = nil, commit: String? = nil) {
        self.path = path
        self.commit = commit
    }
}

/// Turns one buffer into matches. One per worker thread: it owns the PCRE2 match data and
/// the keyword bookkeeping, which are reused for every buffer.
public final class Matcher {
    public let ruleSet: RuleSet
    let scratch: MatchScratch
    private var seen: [Bool]
    private var candidates: [Bool]
    private var candidateList: [Int] = []

    public init(ruleSet: RuleSet) {
        self.ruleSet = ruleSet
        scratch = MatchScratch(maxCaptures: ruleSet.maxCaptures)
        seen = [Bool](repeating: false, count: ruleSet.keywordIndex.keywords.count)
        candidates = [Bool](repeating: false, count: ruleSet.rules.count)
    }

    /// Scans `buffer`. `accept` limits which match starts are reported (used when a large
    /// input is scanned in overlapping chunks, so each match is reported by one chunk).
    public func scan(_ buffer: UnsafeRawBufferPointer, context: MatchContext, accept: Range<Int>? = nil,
                     onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        let set = ruleSet
        for i in 0..<seen.count { seen[i] = false }
        candidateList.removeAll(keepingCapacity: true)
        set.keywordIndex.scan(buffer, seen: &seen) { keyword in
            for r in set.rulesForKeyword[keyword] where !candidates[r] {
                candidates[r] = true
                candidateList.append(r)
            }
        }
        candidateList += set.unconditionalRules
        candidateList.sort()
        for r in candidateList {
            candidates[r] = false
            run(ruleIndex: r, buffer: buffer, context: context, accept: accept, onMatch: onMatch, onFailure: onFailure)
        }
    }

    private func run(ruleIndex: Int, buffer: UnsafeRawBufferPointer, context: MatchContext, accept: Range<Int>?,
                     onMatch: (RuleMatch) -> Void, onFailure: (RuleFailure) -> Void) {
        let rule = ruleSet.rules[ruleIndex]
        if let pathRegex = rule.path, let path = context.path, !pathRegex.matches(path, scratch: scratch) { return }
        var start = 0
        let end = accept?.upperBound ?? buffer.count
        while start <= buffer.count {
            switch rule.regex.firstMatch(in: buffer, from: start, scratch: scratch) {
            case .noMatch:
                return
            case .failure(_, let message):
                onFailure(RuleFailure(ruleIndex: ruleIndex, message: message))
                return
            case .match(let groups):
                guard let whole = groups[0] else { return }
                start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
                if whole.lowerBound >= end { return }
                if let accept, !accept.contains(whole.lowerBound) { continue }
                guard let secret = secretRange(rule, groups), !secret.isEmpty else { continue }
                if !passes(rule, secret: secret, match: whole, buffer: buffer, context: context) { continue }
                onMatch(RuleMatch(ruleIndex: ruleIndex, secret: secret, match: whole))
            }
        }
    }

    private func secretRange(_ rule: Rule, _ groups: [Range<Int>?]) -> Range<Int>? {
        if let g = rule.secretGroup { return g < groups.count ? groups[g] : nil }
        if groups.count > 1 {
            for g in groups.dropFirst() { if let g, !g.isEmpty { return g } }
            return nil
        }
        return groups[0]
    }

    private func passes(_ rule: Rule, secret: Range<Int>, match: Range<Int>, buffer: UnsafeRawBufferPointer, context: MatchContext) -> Bool {
        let secretBytes = UnsafeRawBufferPointer(rebasing: buffer[secret])
        if let min = rule.entropy, Entropy.shannon(secretBytes) < min { return false }
        let hasRuleLists = !rule.allowlists.isEmpty
        let globals = ruleSet.allowlists
        if !hasRuleLists && globals.isEmpty { return true }
        let subject = AllowlistSubject(
            secret: secretBytes,
            match: UnsafeRawBufferPointer(rebasing: buffer[match]),
            line: UnsafeRawBufferPointer(rebasing: buffer[Matcher.lineRange(containing: match.lowerBound, in: buffer)]),
            path: context.path, commit: context.commit)
        for a in rule.allowlists where a.allows(subject, scratch: scratch) { return false }
        for a in globals where a.targetRules.isEmpty || a.targetRules.contains(rule.id) {
            if a.allows(subject, scratch: scratch) { return false }
        }
        return true
    }

    /// The line around `offset`, without its line terminator.
    public static func lineRange(containing offset: Int, in buffer: UnsafeRawBufferPointer) -> Range<Int> {
        var lo = min(offset, buffer.count)
        while lo > 0 && buffer[lo - 1] != 0x0A { lo -= 1 }
        var hi = min(offset, buffer.count)
        while hi < buffer.count && buffer[hi] != 0x0A { hi += 1 }
        var trimmed = hi
        if trimmed > lo && buffer[trimmed - 1] == 0x0D { trimmed -= 1 }
        return lo..<trimmed
    }
}
