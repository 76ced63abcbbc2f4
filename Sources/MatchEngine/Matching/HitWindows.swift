/// The keyword pass's hits of one buffer turned into candidate windows: for each hit, the
/// line around the keyword (at most `Matcher.lookBehind` bytes back, `Matcher.lookAhead` on),
/// one window per rule keyed on it, widened rather than repeated while hits stay on one line.
///
/// A value type the keyword pass's callback reaches through a pointer: held in the matcher's
/// properties or in variables a closure captures, every access of the hit path was a dynamic
/// exclusivity check, 40% of a hit's cost where hits are dense (20 MB of `A`).
struct HitWindows {
    /// Every hit, `keyword << 40 | end` (the matcher's `hits`).
    var hits: [UInt64]
    /// `rule << 44 | start << 12 | length` (the matcher's `windows`).
    var windows: [UInt64]
    /// Per keyword and quarter of the buffer, where its latest windows sit in `windows` (-1:
    /// none yet), so the next hit on the same line widens them instead of adding more: a
    /// line that says "path" five times is one window for the rule keyed on "pat". By
    /// quarter, because the keyword pass reports the hits of its four streams interleaved
    /// (`KeywordIndex.forEachHit`): with one entry per keyword, a long line of hits in each
    /// quarter (20 MB of `A`) made a window per hit, 20 million to sort.
    var latest: [Int]
    /// The entries of `latest` this buffer set, for the matcher to clear: clearing them all
    /// (4 per keyword) at every buffer cost more than the hits of a short decoded value.
    var touched: [Int32]

    private var lines: LineMemo
    private let n: Int
    private let quarter: Int
    /// Windows pack a 32-bit start: in a buffer past 4 GiB (only a huge git blob could be
    /// one) every window is the whole buffer instead.
    let whole: Bool
    private let lengths: [Int]
    private let keywordRules: [Int32], keywordRuleStart: [Int32]

    /// Takes the matcher's arrays (emptied, `latest` all -1) for one buffer.
    init(_ buffer: UnsafeRawBufferPointer, set: RuleSet, hits: [UInt64], windows: [UInt64], latest: [Int], touched: [Int32] = []) {
        self.hits = hits; self.windows = windows; self.latest = latest; self.touched = touched
        lines = LineMemo(buffer)
        n = buffer.count
        quarter = n >= 1024 ? n / 4 : Int.max
        whole = n >= 1 << 32
        lengths = set.keywordIndex.keywordLengths
        keywordRules = set.keywordRules; keywordRuleStart = set.keywordRuleStart
    }

    /// A window's bytes.
    func span(_ w: UInt64) -> Range<Int> {
        if whole { return 0..<n }
        let lo = Int(w >> 12 & 0xFFFF_FFFF)
        return lo..<(lo + Int(w & 4095))
    }

    mutating func add(keyword: Int, end: Int) {
        hits.append(UInt64(keyword) << 40 | UInt64(end))
        let start = end - lengths[keyword]
        let lo = lines.lineStart(before: start, floor: max(0, start - Matcher.lookBehind))
        let hi = lines.lineEnd(from: end, limit: min(n, end + Matcher.lookAhead))
        let first = Int(keywordRuleStart[keyword]), last = Int(keywordRuleStart[keyword + 1])
        let slot = 4 * keyword + min(3, start / quarter)
        let previous = latest[slot]
        if previous >= 0 {
            let p = span(windows[previous])
            if p.contains(lo) || lo == p.upperBound, hi - p.lowerBound <= 4095 {
                if hi > p.upperBound {
                    for j in 0..<(last - first) {
                        windows[previous + j] = windows[previous + j] & ~UInt64(4095) | UInt64(hi - p.lowerBound)
                    }
                }
                return
            }
        }
        let packed = whole ? 0 : UInt64(lo) << 12 | UInt64(min(hi - lo, 4095))
        if previous < 0 { touched.append(Int32(slot)) }
        latest[slot] = windows.count
        for o in first..<last {
            windows.append(UInt64(keywordRules[o]) << 44 | packed)
        }
    }
}
