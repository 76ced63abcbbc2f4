/// What `CredentialNameScorer.score` said of the names a matcher met lately, by their bytes.
///
/// Why: the scorer splits a name into words (an array each) and looks each word up in several
/// `Set<[UInt8]>`s (a SipHash per lookup), and code repeats the same few names on every line
/// near a keyword (`token`, `tokens`, `self._key`, `sort_key`, `password`). On the Python 3.11
/// tree with site-packages the scorer was 4.2% of a whole folder scan's CPU (perf, 60% of the
/// pass's), nearly all of it on names it had read before in the same file or the one before.
/// A lookup here is one FNV-1a over the name and one comparison of its bytes.
///
/// Exact: `score` is a function of the name's bytes and the pass's provider list alone, and a
/// memo belongs to one pass (`Matcher` keeps one per named-credential rule), so an answer from
/// here is the answer the scorer gives. Direct-mapped and bounded (`slots` entries of at most
/// `longestName` bytes; a longer name is scored each time), so memory stays fixed whatever the
/// input; one per matcher, and a matcher is one thread's.
final class CredentialNameMemo {
    static let slots = 4096
    static let longestName = 32
    /// Each slot's name bytes (`longestName` per slot); `lengths[s] == 0`: empty (names have 2+ bytes).
    private var bytes: [UInt8]
    private var lengths: [UInt8]
    private var answers: [CredentialName?]
    /// Names scored (not answered from here): for tests, which count them instead of timing.
    private(set) var scored = 0

    init() {
        bytes = [UInt8](repeating: 0, count: CredentialNameMemo.slots * CredentialNameMemo.longestName)
        lengths = [UInt8](repeating: 0, count: CredentialNameMemo.slots)
        answers = [CredentialName?](repeating: nil, count: CredentialNameMemo.slots)
    }

    /// `scorer.score(name)`, from the memo when the name was met before.
    func score(_ name: UnsafeBufferPointer<UInt8>, by scorer: CredentialNameScorer) -> CredentialName? {
        let n = name.count
        guard n > 0, n <= CredentialNameMemo.longestName else { scored += 1; return scorer.score(name) }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let slot = Int(truncatingIfNeeded: (h ^ h >> 29) & UInt64(CredentialNameMemo.slots - 1))
        let base = slot * CredentialNameMemo.longestName
        return bytes.withUnsafeMutableBufferPointer { stored in
            if Int(lengths[slot]) == n {
                var k = 0
                while k < n && stored[base + k] == name[k] { k += 1 }
                if k == n { return answers[slot] }
            }
            scored += 1
            let answer = scorer.score(name)
            for k in 0..<n { stored[base + k] = name[k] }
            lengths[slot] = UInt8(n)
            answers[slot] = answer
            return answer
        }
    }
}
