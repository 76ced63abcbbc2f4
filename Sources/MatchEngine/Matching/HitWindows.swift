/// The keyword pass's hits of one buffer turned into candidate windows: for each hit, the
/// line around the keyword (at most `Matcher.lookBehind` bytes back, `Matcher.lookAhead` on),
/// one window per rule keyed on it, widened rather than repeated while hits stay on one line.
///
/// The matcher's one copy, kept across buffers for its storage (`begin` empties it), which
/// the keyword pass's callback reaches through a pointer taken once per buffer: as the
/// matcher's properties, or as variables a closure captures, every access of the hit path
/// was a dynamic exclusivity check, 40% of a hit's cost where hits are dense (20 MB of `A`).
struct HitWindows {
    /// Every hit of the buffer, `keyword << 40 | end` (`Matcher.hits`).
    private(set) var hits: [UInt64] = []
    /// `rule << 44 | start << 12 | length`; the matcher sorts them once the hits are in.
    var windows: [UInt64] = []
    /// Per keyword and quarter of the buffer, where its latest windows sit in `windows` (-1:
    /// none yet), so the next hit on the same line widens them instead of adding more: a
    /// line that says "path" five times is one window for the rule keyed on "pat". By
    /// quarter, because the keyword pass reports the hits of its four streams interleaved
    /// (`KeywordIndex.forEachHit`): with one entry per keyword, a long line of hits in each
    /// quarter (20 MB of `A`) made a window per hit, 20 million to sort.
    private var latest: [Int]
    /// The entries of `latest` the last buffer set, cleared by the next `begin`: clearing
    /// them all (4 per keyword) at every buffer cost more than the hits of a short decoded value.
    private var touched: [Int32] = []

    private var lines = LineMemo(UnsafeRawBufferPointer(start: nil, count: 0))
    private var n = 0
    private var quarter = Int.max
    /// Windows pack a 32-bit start: in a buffer past 4 GiB (only a huge git blob could be
    /// one) every window is the whole buffer instead.
    private(set) var whole = false
    private let lengths: [Int]
    private let keywordRules: [Int32], keywordRuleStart: [Int32]

    init(set: RuleSet) {
        latest = [Int](repeating: -1, count: 4 * set.keywordIndex.keywords.count)
        lengths = set.keywordIndex.keywordLengths
        keywordRules = set.keywordRules; keywordRuleStart = set.keywordRuleStart
    }

    /// Empties the hits and windows for a new buffer (their storage kept).
    mutating func begin(_ buffer: UnsafeRawBufferPointer) {
        hits.removeAll(keepingCapacity: true)
        windows.removeAll(keepingCapacity: true)
        for slot in touched { latest[Int(slot)] = -1 }
        touched.removeAll(keepingCapacity: true)
        lines = LineMemo(buffer)
        n = buffer.count
        quarter = n >= 1024 ? n / 4 : Int.max
        whole = n >= 1 << 32
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
