/// The named-credential pass is the fallback: a match of it whose secret overlaps a secret
/// any other rule matched in the same buffer (a provider's, a CLI flag's, a regex generic
/// rule's) is dropped, so the other rule's finding, which was there before the pass and keeps
/// its id and fingerprint, stands alone. Not for a match another rule leaves pending on its
/// own condition (`DeferredChecks.ruleCondition`): the filter stage may drop that one.
/// O(n log n) in the buffer's matches.
enum NamedYield {
    static func apply(_ matches: inout [RuleMatch], isNamed: [Bool]) {
        var others: [Range<Int>] = []
        var anyNamed = false
        for m in matches {
            if isNamed[m.ruleIndex] { anyNamed = true; continue }
            if m.pending?.ruleCondition == true { continue }
            others.append(m.secret)
        }
        guard anyNamed, !others.isEmpty else { return }
        others.sort { $0.lowerBound < $1.lowerBound }
        // The furthest end reached by the spans up to each one, for one binary search a query.
        var furthest: [Int] = []
        furthest.reserveCapacity(others.count)
        var reach = Int.min
        for s in others { reach = max(reach, s.upperBound); furthest.append(reach) }
        matches.removeAll { m in
            guard isNamed[m.ruleIndex] else { return false }
            // The spans starting before the secret's end; one of them reaching past its start overlaps.
            var lo = 0, hi = others.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if others[mid].lowerBound < m.secret.upperBound { lo = mid + 1 } else { hi = mid }
            }
            return lo > 0 && furthest[lo - 1] > m.secret.lowerBound
        }
    }
}
