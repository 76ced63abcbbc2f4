/// One finding per secret: a generic rule's match (`Rule.isGeneric`: a secret-named
/// assignment, a credential in a URL) whose secret lies within a provider rule's secret in the
/// same buffer is dropped, so the provider's finding, which says what the key is and where to
/// revoke it, stands alone. Before, both were reported: 84 of the 527 findings the detection
/// corpus listed were such a second finding of one secret.
///
/// The decision uses what the matcher knows of both matches and nothing else (the bytes, the
/// rules, the verdicts), so it is the same for a folder, a staged file, a history blob, an
/// archive member and decoded text. A generic match yields only when the provider's match is
/// sure to be at least as visible as the generic one would have been: dropping it never turns a
/// secret that was reported into one that is not.
/// - The provider's match is decided and reported (no allowlist, nothing left to the filter
///   stage): every generic match inside it yields.
/// - It is decided and allowlisted (a global allowlist): a generic match yields only when it is
///   decided and allowlisted too (counted once instead of twice).
/// - It is still pending (an allowlist not `decidedByBytes`): a generic match yields only
///   when its own pending checks are the same global allowlists with the same byte results, so
///   both settle alike wherever the buffer came from, and what it falls back to is no more
///   visible than the provider's. A provider match whose rule has a condition of its own or a
///   pending rule allowlist may be dropped by the filter stage, so nothing yields to it.
/// An inline `keyshape:allow` is read later, on the secret's line (and a match's first line):
/// the same lines for two matches of one secret but for a pattern that spans lines.
///
/// Two generic rules matching the same bytes (`pinata_secret_api_key = "…"`: generic-secret's
/// and generic-api-key's) are settled later, in `FindingBuilder`, once each finding's
/// allowlists and baseline are decided: generic rules carry pending allowlists, so here neither
/// could be sure to cover the other.
enum GenericYield {
    /// What a provider match guarantees: the class a generic match must find it in.
    private enum Cover: Hashable {
        case reported
        case allowlisted
        case pending(DeferredChecks)
    }

    /// Removes, in place, the generic matches that yield; the order of the rest is kept.
    /// O(n log n) in the matches of the buffer, whatever the order of the rules in the pack.
    static func apply(_ matches: inout [RuleMatch], isGeneric: [Bool]) {
        var anyGeneric = false, anyProvider = false
        for m in matches {
            if isGeneric[m.ruleIndex] { anyGeneric = true } else { anyProvider = true }
        }
        guard anyGeneric && anyProvider else { return }
        var spans: [Cover: [Range<Int>]] = [:]
        for m in matches where !isGeneric[m.ruleIndex] {
            guard let cover = cover(m) else { continue }
            spans[cover, default: []].append(m.secret)
        }
        guard !spans.isEmpty else { return }
        let index = spans.mapValues(SpanCover.init)
        matches.removeAll { m in
            guard isGeneric[m.ruleIndex] else { return false }
            return acceptable(m).contains { index[$0]?.covers(m.secret) ?? false }
        }
    }

    /// What the provider match `m` guarantees, nil when it may yet be dropped.
    private static func cover(_ m: RuleMatch) -> Cover? {
        guard let pending = m.pending else { return m.allowlisted ? .allowlisted : .reported }
        if pending.ruleCondition || pending.entries.contains(where: \.isRuleList) || pending.otherwise == .drop { return nil }
        return .pending(pending)
    }

    /// The provider guarantees under which the generic match `m` yields.
    private static func acceptable(_ m: RuleMatch) -> [Cover] {
        guard let pending = m.pending else { return m.allowlisted ? [.reported, .allowlisted] : [.reported] }
        // The same global allowlists with the same byte results; the provider's fallback at
        // least as visible (report over allowlisted over drop).
        var out: [Cover] = [.reported]
        let entries = pending.entries
        out.append(.pending(DeferredChecks(entries: entries, otherwise: .report)))
        if pending.otherwise != .report { out.append(.pending(DeferredChecks(entries: entries, otherwise: .allowlisted))) }
        return out
    }
}

/// Byte spans, answering whether one of them holds a given span: sorted by start, with the
/// furthest end reached so far, so each question is one binary search.
private struct SpanCover {
    private var starts: [Int] = []
    private var furthest: [Int] = []

    init(_ spans: [Range<Int>]) {
        let sorted = spans.sorted { $0.lowerBound < $1.lowerBound }
        var reach = Int.min
        for s in sorted {
            reach = max(reach, s.upperBound)
            starts.append(s.lowerBound)
            furthest.append(reach)
        }
    }

    /// Whether some span starts at or before `r` and ends at or after it.
    func covers(_ r: Range<Int>) -> Bool {
        // The last span starting at or before r.lowerBound.
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= r.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && furthest[lo - 1] >= r.upperBound
    }
}
