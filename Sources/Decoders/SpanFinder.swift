import CByteMasks

/// Finds the encoded spans of one buffer and decodes them: one level of decoding, in one
/// forward pass (no regex).
///
/// What is found is defined by a plain byte walk (`step` from 0, each step one byte, one run
/// of the base64 alphabet or one span): a run of `minimumBase64Length` or more that holds an
/// upper-case letter or a digit is a candidate, and the other encodings start only at a
/// trigger (`%` before two hex digits, a backslash before `u`, `x`, `/`, `"` or three octal
/// digits, `data:`). The walk is not run byte by byte. One vector pass (`keyshape_find_runs`,
/// C, as wide as the processor allows) marks the run characters, the strong ones (upper
/// case, digits) and the stops (backslashes, `%`, colons after an `a`) as bitmaps, and lists
/// the long runs that hold a strong byte with their ends and what else they hold; the walk
/// goes from stop to listed run to stop, since everything between them is bytes and runs
/// that `step` passes over without effect. A candidate is decoded into scratch storage sized
/// once per buffer and checked for text there, after a check of its first quanta that drops
/// most identifiers without decoding them (`quickDrop`); only a span that is kept allocates,
/// so a buffer with nothing encoded allocates nothing.
///
/// Spans of one level do not overlap: a percent-encoded URL or an escaped string literal
/// replaces the base64 runs already taken inside it (they are found again, decoded, one
/// level down), and the pass resumes after it.
public struct SpanFinder {
    /// Shorter runs of the base64 alphabet are words and identifiers, not values worth
    /// decoding: 22 characters hold 16 bytes, and no example of the rule pack matches in
    /// fewer (each cut down to the shortest text its rule still finds it in: wifi-psk's
    /// `psk="…"`, 16 bytes; `ShortestEncodedMatchTests`). The candidate search costs per run,
    /// and runs of 16 to 21 characters with a strong byte were 51% of those of 16 or more in
    /// source (100 MB of the benchmark tree); with 16, decoding on ran at 89.7% of off
    /// (`scripts/bench-scan --decoding`, an AVX2 host), with 22 at 91%. Defined in C
    /// (`KEYSHAPE_LONG_RUN`), where the vector pass lists the runs this long.
    public static let minimumBase64Length = Int(KEYSHAPE_LONG_RUN)
    /// Hex digests and ids are 32 (MD5, UUID without dashes) or more; shorter runs are
    /// colours, addresses and small constants.
    public static let minimumHexLength = Int(KEYSHAPE_HEX_RUN)
    /// How far back from a `%` or a backslash the start of its URL or string literal is
    /// looked for: a longer literal is decoded from this far back only.
    public static let maximumLookback = 4096
    /// A `data:` URI's media type and parameters longer than this are not a data URI.
    static let maximumMediaTypeLength = 256

    /// Decoded bytes of the escapes, hex and percent decoders (appended).
    private var scratch: [UInt8] = []
    /// Decoded bytes of base64 (written through a pointer): room for a whole buffer's decode,
    /// grown, never shrunk.
    private var wide: [UInt8] = []
    /// The bitmaps of `keyshape_find_runs` (run, stops, then its own two), one after the
    /// other, and its list of long runs: grown, never shrunk.
    private var masks: [UInt64] = []
    private var runs: [keyshape_run_candidate] = []
    /// The words of the stops bitmap that hold a stop (`keyshape_stop_words`): grown, never shrunk.
    private var stopWords: [UInt32] = []
    /// Which implementation of the C pass runs (`KEYSHAPE_MASKS_*`): the widest the processor
    /// has, or one a test names to compare them.
    let tier: Int32

    public init() {
        tier = keyshape_masks_tier()
    }

    /// A finder running one implementation of the C pass (`KEYSHAPE_MASKS_*`; a tier the
    /// processor lacks runs as the widest it has): for the tests and the fuzz harness, which
    /// compare them.
    public init(tier: Int32) {
        self.tier = tier
    }

    /// The implementations this processor runs, scalar first.
    public static var availableTiers: [Int32] { Array(0...keyshape_masks_hardware_tier()) }

    /// Appends the buffer's encoded spans, in order, to `spans`.
    /// - Parameters:
    ///   - keepBinary: also keep spans whose bytes are not text worth matching (to be searched
    ///     for encodings nested inside them), marked `isText == false`.
    ///   - budget: every decode is charged to it; a span that does not fit is left undecoded
    ///     and the budget marked exhausted.
    public mutating func find(_ buffer: UnsafeRawBufferPointer, keepBinary: Bool, budget: inout DecodeBudget,
                              into spans: inout [DecodedSpan]) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = buffer.count
        let words = keyshape_masks_words(n)
        if masks.count < 4 * words { masks = [UInt64](repeating: 0, count: 4 * words) }
        if runs.count < n / 16 + 1 { runs = [keyshape_run_candidate](repeating: keyshape_run_candidate(), count: n / 16 + 1) }
        if stopWords.count < words { stopWords = [UInt32](repeating: 0, count: words) }
        // The longest base64 decode of a buffer is its whole length read as base64.
        if wide.count < n / 4 * 3 + 3 { wide = [UInt8](repeating: 0, count: n / 4 * 3 + 3) }
        ByteClass.table.withUnsafeBufferPointer { t in
            masks.withUnsafeMutableBufferPointer { m in
                runs.withUnsafeMutableBufferPointer { r in
                    wide.withUnsafeMutableBufferPointer { w in
                        stopWords.withUnsafeMutableBufferPointer { s in
                            let run = m.baseAddress!, stops = run + words
                            let count = keyshape_find_runs_with(tier, p, n, keepBinary ? 1 : 0, run, stops, run + 2 * words, r.baseAddress!)
                            let stopWordCount = keyshape_stop_words_with(tier, stops, words, s.baseAddress!)
                            var pass = Pass(p: p, n: n, t: t, tier: tier, firstSpan: spans.count, keepBinary: keepBinary,
                                            run: UnsafePointer(run), stops: UnsafePointer(stops), words: words, stopWords: UnsafePointer(s.baseAddress!), stopWordCount: stopWordCount,
                                            runs: UnsafePointer(r.baseAddress!), runCount: count, wide: w.baseAddress!)
                            pass.run(scratch: &scratch, budget: &budget, spans: &spans)
                        }
                    }
                }
            }
        }
    }
}

/// The state of one pass over one buffer.
private struct Pass {
    let p: UnsafePointer<UInt8>
    let n: Int
    let t: UnsafeBufferPointer<UInt16>
    let tier: Int32
    /// Spans before this index belong to the caller.
    let firstSpan: Int
    let keepBinary: Bool
    /// The buffer's bitmaps (`keyshape_find_runs`) and their length in words.
    let runMask: UnsafePointer<UInt64>
    let stops: UnsafePointer<UInt64>
    let words: Int
    /// The words of `stops` that hold one, in order, and the first of them the walk has not
    /// passed (the walk only goes forward).
    let stopWords: UnsafePointer<UInt32>
    let stopWordCount: Int
    var stopCursor = 0
    /// The long runs with a strong byte, in order, from their first byte.
    let runs: UnsafePointer<keyshape_run_candidate>
    let runCount: Int
    /// Room for the base64 decode of any span of the buffer.
    let wide: UnsafeMutablePointer<UInt8>

    /// End of the last span kept: nothing before it is part of a later span.
    var floor = 0
    /// A `%` or an escape before these was already part of a span tried (and dropped), so
    /// a long line of them is tried once, not once per escape; the backward searches for a
    /// URL's or a literal's start stop there too, so they cost a pass in all.
    var percentTriedUntil = 0
    var escapeTriedUntil = 0

    init(p: UnsafePointer<UInt8>, n: Int, t: UnsafeBufferPointer<UInt16>, tier: Int32, firstSpan: Int,
         keepBinary: Bool, run: UnsafePointer<UInt64>, stops: UnsafePointer<UInt64>, words: Int,
         stopWords: UnsafePointer<UInt32>, stopWordCount: Int,
         runs: UnsafePointer<keyshape_run_candidate>, runCount: Int, wide: UnsafeMutablePointer<UInt8>) {
        self.p = p; self.n = n; self.t = t; self.tier = tier; self.firstSpan = firstSpan; self.keepBinary = keepBinary
        self.runMask = run; self.stops = stops; self.words = words
        self.stopWords = stopWords; self.stopWordCount = stopWordCount
        self.runs = runs; self.runCount = runCount; self.wide = wide
    }

    // MARK: the bitmaps

    @inline(__always)
    func isRun(_ i: Int) -> Bool { runMask[i >> 6] >> UInt64(i & 63) & 1 != 0 }

    /// The first stop at or after `i`, `n` for none: from the list of the words that hold one,
    /// not word by word (the walk tested every word between two stops, 40% of its CPU in a
    /// folder scan by profile). `i` never goes back between calls.
    @inline(__always)
    mutating func nextStop(from i: Int) -> Int {
        let k = i >> 6
        while stopCursor < stopWordCount {
            let w = Int(truncatingIfNeeded: stopWords[stopCursor])
            if w >= k {
                let m = w == k ? stops[w] & (~UInt64(0) << UInt64(i & 63)) : stops[w]
                if m != 0 { return min(n, w << 6 + m.trailingZeroBitCount) }
            }
            stopCursor += 1
        }
        return n
    }

    /// The first byte at or after `i` that is not a run character, `n` for none.
    @inline(__always)
    func runEnd(from i: Int) -> Int {
        var k = i >> 6
        var m = ~runMask[k] & (~UInt64(0) << UInt64(i & 63))
        while m == 0 {
            k += 1
            if k >= words { return n }
            m = ~runMask[k]
        }
        return min(n, k << 6 + m.trailingZeroBitCount)
    }

    /// The walk `i = 0; while i < n { i = step(i) }`, from stop to listed run to stop. Between
    /// them are only bytes that are neither run characters nor triggers `step` acts on, runs
    /// shorter than `minimumBase64Length`, runs without a strong byte and runs of hex digits
    /// alone too short or odd for hex (with no `=` after them), which `step` passes over
    /// without effect (a long run that continues a run is part of the run before it).
    /// Where the walk resumes inside a run (after a span, after the byte a backslash ate),
    /// that run is taken from there, as `step` does, and the listed runs it passed are skipped.
    mutating func run(scratch: inout [UInt8], budget: inout DecodeBudget, spans: inout [DecodedSpan]) {
        var i = 0
        var next = 0
        var stop = nextStop(from: 0)
        while i < n {
            if isRun(i) {
                i = runAt(i, &scratch, &budget, &spans)
                continue
            }
            if stop < i { stop = nextStop(from: i) }
            while next < runCount && Int(truncatingIfNeeded: runs[next].start) < i { next += 1 }
            if next < runCount && Int(truncatingIfNeeded: runs[next].start) < stop {
                i = listedRun(runs[next], &scratch, &budget, &spans)
                next += 1
            } else if stop < n {
                i = step(stop, &scratch, &budget, &spans)
            } else {
                break
            }
        }
    }

    /// `=` padding after a run's end: where the walk goes on.
    @inline(__always)
    func afterPadding(_ runEnd: Int) -> Int {
        var i = runEnd
        if i < n && p[i] == UInt8(ascii: "=") {
            i += 1
            if i < n && p[i] == UInt8(ascii: "=") { i += 1 }
        }
        return i
    }

    /// A listed run, from its first byte: its end and classes are the list's.
    @inline(__always)
    mutating func listedRun(_ r: keyshape_run_candidate, _ scratch: inout [UInt8], _ budget: inout DecodeBudget,
                            _ spans: inout [DecodedSpan]) -> Int {
        let start = Int(truncatingIfNeeded: r.start), runEnd = Int(truncatingIfNeeded: r.end)
        let end = afterPadding(runEnd)
        var flags = ByteClass.strong
        if r.flags & UInt32(KEYSHAPE_RUN_NOT_HEX) != 0 { flags |= ByteClass.notHex }
        if r.flags & UInt32(KEYSHAPE_RUN_STANDARD_ONLY) != 0 { flags |= ByteClass.standardOnly }
        if r.flags & UInt32(KEYSHAPE_RUN_URL_ONLY) != 0 { flags |= ByteClass.urlOnly }
        considerRun(start, runEnd, end, flags, listed: true, &scratch, &budget, &spans)
        return end
    }

    /// A run of base64 characters from `start` where the walk resumed inside it (or at a run
    /// the list also holds), as `step` takes it: a long run goes on to `considerRun`, which
    /// wants a strong byte. Few runs come this way (after a span, after a backslash), so
    /// their classes are gathered a byte at a time.
    mutating func runAt(_ start: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int {
        let runEnd = runEnd(from: start)
        let i = afterPadding(runEnd)
        if runEnd - start >= SpanFinder.minimumBase64Length {
            var flags: UInt16 = 0
            for k in start..<runEnd { flags |= t[Int(p[k])] }
            considerRun(start, runEnd, i, flags, listed: false, &scratch, &budget, &spans)
        }
        return i
    }

    /// One trigger byte or one span from `i` (an event that is not a run); returns where to
    /// go on.
    @inline(__always)
    mutating func step(_ i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int {
        let b = p[i]
        let c = t[Int(b)]
        if c & ByteClass.trigger == 0 { return i + 1 }
        switch b {
        case UInt8(ascii: "%"):
            if i >= percentTriedUntil, i + 2 < n, t[Int(p[i + 1])] & ByteClass.hexDigit != 0, t[Int(p[i + 2])] & ByteClass.hexDigit != 0,
               let end = percentSpan(at: i, &scratch, &budget, &spans) {
                return end
            }
            return i + 1
        case UInt8(ascii: "\\"):
            if i >= escapeTriedUntil, isEscapeTrigger(i), let end = escapeSpan(at: i, &scratch, &budget, &spans) {
                return end
            }
            // The escaped byte is never a quote that opens or closes a literal.
            return i + 2
        case UInt8(ascii: ":"):
            return dataURISpan(colon: i, &scratch, &budget, &spans) ?? i + 1
        default:
            return i + 1
        }
    }

    // MARK: base64 and hex runs

    /// - Parameter listed: the run is one of the C pass's list, which holds only runs that
    ///   `quickDrop` keeps when they are read as base64 from their first byte.
    mutating func considerRun(_ start: Int, _ runEnd: Int, _ end: Int, _ flags: UInt16, listed: Bool,
                              _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) {
        // No upper-case letter and no digit: a word or a `snake_case_name`. Base64 of text has
        // one in nearly every 8 characters (each 4 characters start with the top bits of a
        // byte, `I` to `Z` for most ASCII, and the other 7 are spread over 64 letters): of
        // 20,000 random stretches of Python source, base64-encoded, 9 of 16 characters had no
        // such 8 and none of 24 or more; the whole run having none is rarer still.
        if flags & ByteClass.strong == 0 { return }
        if flags & ByteClass.notHex == 0 && end == runEnd {
            // Only hex digits: a base64 value of 16 or more characters drawn from 22 of its 64
            // letters is vanishingly rare, so such a run is hex or nothing.
            let count = runEnd - start
            if count >= SpanFinder.minimumHexLength && count % 2 == 0 {
                decodeHex(start, runEnd, &scratch, &budget, &spans)
            }
            return
        }
        let zeroX = p[start] == UInt8(ascii: "0") && p[start + 1] | 0x20 == UInt8(ascii: "x")
        if zeroX && end == runEnd {
            var k = start + 2
            while k < runEnd && t[Int(p[k])] & ByteClass.hexDigit != 0 { k += 1 }
            if k == runEnd {
                let count = runEnd - start - 2
                if count >= SpanFinder.minimumHexLength && count % 2 == 0 { decodeHex(start + 2, runEnd, &scratch, &budget, &spans) }
                return
            }
        }
        var from = start
        let mixed = flags & ByteClass.standardOnly != 0 && flags & ByteClass.urlOnly != 0
        if mixed {
            // Both alphabets: a name or a prefix joined to a standard value by `-` or `_`
            // (`sha384-...`, `token_...`); the value is what follows the last of them.
            var k = runEnd - 1
            while k > start && t[Int(p[k])] & ByteClass.urlOnly == 0 { k -= 1 }
            from = k + 1
            if runEnd - from < SpanFinder.minimumBase64Length { return }
        }
        let encoding: Encoding = !mixed && flags & ByteClass.urlOnly != 0 ? .base64url : .base64
        // Dropped unread costs no budget: nothing is decoded. A listed run read from its first
        // byte (one of the alphabets, a byte that is not a hex digit, no `0x`) was already
        // kept by the C pass's check, which is this one.
        let settled = listed && !mixed && flags & ByteClass.notHex != 0 && !zeroX
        if !settled && quickDrop(from, runEnd) { return }
        guard budget.take((end - from) / 4 * 3 + 2) else { return }
        guard let count = ValueDecoding.base64(p, from..<end, into: wide) else { return }
        keep(encoding, from..<end, UnsafeBufferPointer(start: wide, count: count), &spans)
    }

    /// Whether the base64 characters `from..<runEnd` (its `=` padding left out) certainly
    /// decode to bytes `keep` drops, read from their first characters (`keyshape_base64_drops`:
    /// a length no base64 has; or the first 12 bytes hold more bytes `TextCheck.isText` counts
    /// as bad than the whole decode may, and, when binary spans are kept, no 10 printable bytes
    /// in a row can be among them). Identifiers are most of the candidates in source (1.1
    /// million in 211 MB of the benchmark tree), and 99.5% of them are dropped here without
    /// being decoded whole.
    @inline(__always)
    func quickDrop(_ from: Int, _ runEnd: Int) -> Bool {
        keyshape_base64_drops_with(tier, p, from, runEnd - from, keepBinary ? 1 : 0) != 0
    }

    mutating func decodeHex(_ start: Int, _ end: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) {
        guard budget.take((end - start) / 2) else { return }
        guard ValueDecoding.hex(p, start..<end, into: &scratch) else { return }
        _ = scratch.withUnsafeBufferPointer { keep(.hex, start..<end, $0, &spans) }
    }

    // MARK: percent-encoding

    /// A `%XX` at `i`: the run of URL characters around it.
    /// - Returns: where the pass resumes when the span was kept, nil to go on at `i + 1`.
    mutating func percentSpan(at i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int? {
        let limit = max(floor, percentTriedUntil, i - SpanFinder.maximumLookback)
        var start = i
        while start > limit && t[Int(p[start - 1])] & ByteClass.url != 0 { start -= 1 }
        var end = i + 3
        while end < n && t[Int(p[end])] & ByteClass.url != 0 { end += 1 }
        percentTriedUntil = end
        guard budget.take(end - start) else { return nil }
        guard ValueDecoding.percent(p, start..<end, into: &scratch) else { return nil }
        return scratch.withUnsafeBufferPointer { replace(.percent, start..<end, $0, &spans) } ? end : nil
    }

    // MARK: string escapes

    // `isEscapeTrigger` and `openingQuote` are inlined: called from a mutating method, each
    // call copied the whole pass (152 bytes) to the stack first, once per backslash.

    /// Whether the backslash at `i` starts an escape that makes its literal worth decoding.
    @inline(__always)
    func isEscapeTrigger(_ i: Int) -> Bool {
        guard i + 1 < n else { return false }
        func hex(_ from: Int, _ count: Int) -> Bool {
            if from + count > n { return false }
            for k in from..<from + count where t[Int(p[k])] & ByteClass.hexDigit == 0 { return false }
            return true
        }
        func octal(_ k: Int) -> Bool { k < n && p[k] >= UInt8(ascii: "0") && p[k] <= UInt8(ascii: "7") }
        switch p[i + 1] {
        case UInt8(ascii: "u"): return hex(i + 2, 4)
        case UInt8(ascii: "x"): return hex(i + 2, 2)
        case UInt8(ascii: "/"), UInt8(ascii: "\""): return true
        // `\0` alone ends many C strings; three octal digits are an encoded byte.
        case UInt8(ascii: "0")...UInt8(ascii: "3"): return octal(i + 2) && octal(i + 3)
        default: return false
        }
    }

    /// The last unescaped quote before `i` on its line (not before the last span tried), -1
    /// for none.
    @inline(__always)
    func openingQuote(before i: Int) -> Int {
        let limit = max(floor, escapeTriedUntil, i - SpanFinder.maximumLookback)
        var k = i - 1
        while k >= limit {
            let b = p[k]
            if b == UInt8(ascii: "\n") { return -1 }
            if t[Int(b)] & ByteClass.quote != 0 {
                var backslashes = 0
                while k - backslashes - 1 >= limit && p[k - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return k }
            }
            k -= 1
        }
        return -1
    }

    /// An escape at `i`: the string literal around it (from the quote that opened it on this
    /// line to the matching unescaped quote or the line's end), or, outside quotes, from the
    /// escape to the next blank.
    mutating func escapeSpan(at i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int? {
        let quoteAt = openingQuote(before: i)
        let quoted = quoteAt >= 0
        let start = quoted ? quoteAt + 1 : i
        let close: UInt8 = quoted ? p[quoteAt] : 0
        var end = i
        while end < n {
            let b = p[end]
            if b == UInt8(ascii: "\\") { end += 2; continue }
            if b == UInt8(ascii: "\n") || b == close { break }
            if !quoted && (b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || t[Int(b)] & ByteClass.quote != 0) { break }
            end += 1
        }
        end = min(end, n)
        escapeTriedUntil = end
        guard budget.take(3 * (end - start) / 2 + 4) else { return nil }
        // Unescaping never lengthens a literal, so a shorter one decodes to less than `keep`
        // and `replace` take (text worth matching, a printable run): 12,368 of the 14,424
        // literals tried in the benchmark tree (`'\u2028'`, `"\x1b[0m"`), each decoded and
        // checked for nothing before.
        if end - start < TextCheck.minimumLength { return nil }
        var octal = false
        guard ValueDecoding.escapes(p, start..<end, into: &scratch, sawOctal: &octal) else { return nil }
        return scratch.withUnsafeBufferPointer { replace(octal ? .cEscape : .jsonEscape, start..<end, $0, &spans) } ? end : nil
    }

    // MARK: data: URIs

    /// A `:` ending `data` (not part of a longer word): `data:[media type][;base64],payload`.
    mutating func dataURISpan(colon i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int? {
        guard i >= 4, p[i - 4] | 0x20 == UInt8(ascii: "d"), p[i - 3] | 0x20 == UInt8(ascii: "a"),
              p[i - 2] | 0x20 == UInt8(ascii: "t"), p[i - 1] | 0x20 == UInt8(ascii: "a"),
              i == 4 || t[Int(p[i - 5])] & ByteClass.alphanumeric == 0 else { return nil }
        var comma = i + 1
        while comma < n && comma - i <= SpanFinder.maximumMediaTypeLength && isMediaTypeByte(p[comma]) { comma += 1 }
        guard comma < n, p[comma] == UInt8(ascii: ",") else { return nil }
        var base64 = comma - i > 7 && p[comma - 7] == UInt8(ascii: ";")
        if base64 {
            for (k, letter) in "base64".utf8.enumerated() where p[comma - 6 + k] | 0x20 != letter { base64 = false }
        }
        let start = comma + 1
        var end = start
        if base64 {
            while end < n && t[Int(p[end])] & ByteClass.base64Character != 0 { end += 1 }
            var padding = 0
            while end < n && padding < 2 && p[end] == UInt8(ascii: "=") { end += 1; padding += 1 }
            guard end > start, budget.take((end - start) / 4 * 3 + 2) else { return nil }
            guard let count = ValueDecoding.base64(p, start..<end, into: wide) else { return nil }
            return replace(.dataURI, start..<end, UnsafeBufferPointer(start: wide, count: count), &spans) ? end : nil
        }
        while end < n && t[Int(p[end])] & ByteClass.url != 0 { end += 1 }
        // Without a `%XX` the payload is its own text, already scanned as it is.
        guard end > start, budget.take(end - start) else { return nil }
        guard ValueDecoding.percent(p, start..<end, into: &scratch) else { return nil }
        percentTriedUntil = max(percentTriedUntil, end)
        return scratch.withUnsafeBufferPointer { replace(.dataURI, start..<end, $0, &spans) } ? end : nil
    }

    func isMediaTypeByte(_ b: UInt8) -> Bool {
        t[Int(b)] & ByteClass.alphanumeric != 0 || b == UInt8(ascii: "/") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: ";") || b == UInt8(ascii: "=") || b == UInt8(ascii: "_")
    }

    // MARK: keeping spans

    /// Keeps the decoded bytes as a span when they are text worth matching, or when binary
    /// spans are wanted and they may hold a nested candidate (a long enough printable run).
    @discardableResult
    mutating func keep(_ encoding: Encoding, _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ spans: inout [DecodedSpan]) -> Bool {
        let text = TextCheck.isText(bytes) && TextCheck.isWorthMatching(bytes)
        guard text || (keepBinary && TextCheck.mayHoldEncoding(bytes)) else { return false }
        spans.append(DecodedSpan(encoding: encoding, sourceRange: range, bytes: Array(bytes), isText: text))
        floor = range.upperBound
        return true
    }

    /// Keeps a span that encloses earlier runs (a URL, a literal): those runs are dropped,
    /// they are inside its decoded bytes.
    mutating func replace(_ encoding: Encoding, _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ spans: inout [DecodedSpan]) -> Bool {
        let text = TextCheck.isText(bytes) && TextCheck.isWorthMatching(bytes)
        guard text || (keepBinary && TextCheck.mayHoldEncoding(bytes)) else { return false }
        while spans.count > firstSpan, spans[spans.count - 1].sourceRange.lowerBound >= range.lowerBound { spans.removeLast() }
        spans.append(DecodedSpan(encoding: encoding, sourceRange: range, bytes: Array(bytes), isText: text))
        floor = range.upperBound
        return true
    }
}
