import MatchEngine

/// Names are printed (a path is a location), but a name can hold a key: a file called
/// `ghp_…txt`, a folder named after a token, an archive member named by a build script. Each
/// name is run through the trusted rules before it becomes a place; every span a rule's pattern
/// matches (whatever entropy or placeholder checks then say) is withheld, replaced by
/// `[withheld]`, in every output and in the fingerprint, which is made of the name it prints.
/// A rule that cannot finish on a name withholds the whole name (fail closed). Only the rules'
/// keywords are searched first, so an ordinary name costs one pass of the keyword automaton.
/// One per worker thread (it owns a matcher's scratch).
final class NameVetting {
    static let marker = Array("[withheld]".utf8)
    private let matcher: Matcher

    init(ruleSet: RuleSet) {
        matcher = Matcher(ruleSet: ruleSet, mode: .nameVetting)
    }

    private var known: [[UInt8]: [UInt8]] = [:]
    /// How many names are remembered (for tests).
    var remembered: Int { known.count }

    /// `name` with every matched span withheld; the same bytes when none is. Remembered (history
    /// meets one path in many commits), up to a bound, unless `once`: a folder walk lists each
    /// path once, and remembering 51,000 paths of the Python 3.11 tree (each hashed, stored,
    /// the table grown) was half of this type's cost, 1.4% of the scan's CPU (perf); the
    /// answer is the same either way (`vetOnce` depends on the name alone).
    func vet(_ name: [UInt8], once: Bool = false) -> [UInt8] {
        if once { return vetOnce(name) }
        if let done = known[name] { return done }
        let vetted = vetOnce(name)
        if known.count > 100_000 { known.removeAll(keepingCapacity: true) }
        known[name] = vetted
        return vetted
    }

    private func vetOnce(_ name: [UInt8]) -> [UInt8] {
        guard !name.isEmpty else { return name }
        var spans: [Range<Int>] = []
        var failed = false
        name.withUnsafeBytes { buffer in
            // The trusted pass records every trusted pattern's match before any check drops it.
            matcher.scan(buffer, pass: .trusted, onMatch: { _ in }, onFailure: { _ in failed = true })
            spans = matcher.trustedSpans
        }
        if failed { return NameVetting.marker }
        guard !spans.isEmpty else { return name }
        var out: [UInt8] = []
        var at = 0
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let lo = max(span.lowerBound, at), hi = min(span.upperBound, name.count)
            if lo >= hi { continue }
            out += name[at..<lo]
            out += NameVetting.marker
            at = hi
        }
        out += name[at...]
        return out
    }
}
