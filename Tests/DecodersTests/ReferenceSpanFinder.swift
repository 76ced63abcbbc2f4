@testable import Decoders

// The candidate finder's definition: a plain byte walk (`i = 0; while i < n { i = step(i) }`)
// with a table lookup a byte, base64 decoded by appending, `TextCheck.mayHoldEncoding` byte by
// byte. `SpanFinderEquivalenceTests` checks that the fast finder (bitmaps from a vector pass,
// a walk from event to event, decoding through a pointer) gives exactly what this gives.
//
// It has no block walk: the finder before the bitmaps skipped 8-byte blocks that held no 8
// base64 characters with an upper-case letter or a digit, so which runs it considered
// depended on the block grid and on where its byte walk last stopped (a run was taken from
// where the walk met it). Now a long run is considered when it holds an upper-case
// letter or a digit anywhere (`considerRun`), a rule of the run alone: every run the block
// walk kept is kept (a run of 16 holds an aligned 8, and an 8 that kept it held such a
// byte), and `snake_case_names` and lower-case words are still never decoded.

struct ReferenceSpanFinder {
    /// The finder's parameters, not its definition: the lengths it is given.
    static let minimumBase64Length = SpanFinder.minimumBase64Length
    static let minimumHexLength = SpanFinder.minimumHexLength
    /// How far back from a `%` or a backslash the start of its URL or string literal is
    /// looked for: a longer literal is decoded from this far back only.
    static let maximumLookback = 4096
    /// A `data:` URI's media type and parameters longer than this are not a data URI.
    static let maximumMediaTypeLength = 256

    private var scratch: [UInt8] = []

    init() {}

    /// Appends the buffer's encoded spans, in order, to `spans`.
    /// - Parameters:
    ///   - keepBinary: also keep spans whose bytes are not text worth matching (to be searched
    ///     for encodings nested inside them), marked `isText == false`.
    ///   - budget: every decode is charged to it; a span that does not fit is left undecoded
    ///     and the budget marked exhausted.
    mutating func find(_ buffer: UnsafeRawBufferPointer, keepBinary: Bool, budget: inout DecodeBudget,
                              into spans: inout [DecodedSpan]) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        ByteClass.table.withUnsafeBufferPointer { t in
            var pass = ReferencePass(p: p, n: buffer.count, t: t, firstSpan: spans.count, keepBinary: keepBinary)
            pass.run(scratch: &scratch, budget: &budget, spans: &spans)
        }
    }
}

/// The state of one pass over one buffer.
private struct ReferencePass {
    let p: UnsafePointer<UInt8>
    let n: Int
    let t: UnsafeBufferPointer<UInt16>
    /// Spans before this index belong to the caller.
    let firstSpan: Int
    let keepBinary: Bool

    /// End of the last span kept: nothing before it is part of a later span.
    var floor = 0
    /// A `%` or an escape before these was already part of a span tried (and dropped), so
    /// a long line of them is tried once, not once per escape; the backward searches for a
    /// URL's or a literal's start stop there too, so they cost a pass in all.
    var percentTriedUntil = 0
    var escapeTriedUntil = 0

    init(p: UnsafePointer<UInt8>, n: Int, t: UnsafeBufferPointer<UInt16>, firstSpan: Int, keepBinary: Bool) {
        self.p = p; self.n = n; self.t = t; self.firstSpan = firstSpan; self.keepBinary = keepBinary
    }

    mutating func run(scratch: inout [UInt8], budget: inout DecodeBudget, spans: inout [DecodedSpan]) {
        var i = 0
        while i < n { i = step(i, &scratch, &budget, &spans) }
    }

    /// One byte, one run or one span from `i`; returns where to go on.
    @inline(__always)
    mutating func step(_ i0: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int {
        var i = i0
        let b = p[i]
        let c = t[Int(b)]
        if c & ByteClass.run != 0 {
            let start = i
            var flags = c
            i += 1
            while i < n {
                let d = t[Int(p[i])]
                if d & ByteClass.run == 0 { break }
                flags |= d
                i += 1
            }
            let runEnd = i
            if i < n && p[i] == UInt8(ascii: "=") {
                i += 1
                if i < n && p[i] == UInt8(ascii: "=") { i += 1 }
            }
            if runEnd - start >= ReferenceSpanFinder.minimumBase64Length {
                considerRun(start, runEnd, i, flags, &scratch, &budget, &spans)
            }
            return i
        }
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

    mutating func considerRun(_ start: Int, _ runEnd: Int, _ end: Int, _ flags: UInt16,
                              _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) {
        // No upper-case letter and no digit anywhere in the run: a word, not a value.
        if flags & ByteClass.strong == 0 { return }
        if flags & ByteClass.notHex == 0 && end == runEnd {
            // Only hex digits: a base64 value of 16 or more characters drawn from 22 of its 64
            // letters is vanishingly rare, so such a run is hex or nothing.
            let count = runEnd - start
            if count >= ReferenceSpanFinder.minimumHexLength && count % 2 == 0 {
                decodeHex(start, runEnd, &scratch, &budget, &spans)
            }
            return
        }
        if p[start] == UInt8(ascii: "0") && p[start + 1] | 0x20 == UInt8(ascii: "x") && end == runEnd {
            var k = start + 2
            while k < runEnd && t[Int(p[k])] & ByteClass.hexDigit != 0 { k += 1 }
            if k == runEnd {
                let count = runEnd - start - 2
                if count >= ReferenceSpanFinder.minimumHexLength && count % 2 == 0 { decodeHex(start + 2, runEnd, &scratch, &budget, &spans) }
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
            if runEnd - from < ReferenceSpanFinder.minimumBase64Length { return }
        }
        let encoding: Encoding = !mixed && flags & ByteClass.urlOnly != 0 ? .base64url : .base64
        // Dropped from its first characters: not decoded, no budget spent.
        if ReferenceDecoding.dropsUnread(p, from, end, keepBinary: keepBinary) { return }
        guard budget.take((end - from) / 4 * 3 + 2) else { return }
        guard ReferenceDecoding.base64(p, from..<end, into: &scratch) else { return }
        keep(encoding, from..<end, &scratch, &spans)
    }

    mutating func decodeHex(_ start: Int, _ end: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) {
        guard budget.take((end - start) / 2) else { return }
        guard ValueDecoding.hex(p, start..<end, into: &scratch) else { return }
        keep(.hex, start..<end, &scratch, &spans)
    }

    // MARK: percent-encoding

    /// A `%XX` at `i`: the run of URL characters around it.
    /// - Returns: where the pass resumes when the span was kept, nil to go on at `i + 1`.
    mutating func percentSpan(at i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int? {
        let limit = max(floor, percentTriedUntil, i - ReferenceSpanFinder.maximumLookback)
        var start = i
        while start > limit && t[Int(p[start - 1])] & ByteClass.url != 0 { start -= 1 }
        var end = i + 3
        while end < n && t[Int(p[end])] & ByteClass.url != 0 { end += 1 }
        percentTriedUntil = end
        guard budget.take(end - start) else { return nil }
        guard ValueDecoding.percent(p, start..<end, into: &scratch) else { return nil }
        return replace(.percent, start..<end, &scratch, &spans) ? end : nil
    }

    // MARK: string escapes

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
    func openingQuote(before i: Int) -> Int {
        let limit = max(floor, escapeTriedUntil, i - ReferenceSpanFinder.maximumLookback)
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
        var octal = false
        guard ValueDecoding.escapes(p, start..<end, into: &scratch, sawOctal: &octal) else { return nil }
        return replace(octal ? .cEscape : .jsonEscape, start..<end, &scratch, &spans) ? end : nil
    }

    // MARK: data: URIs

    /// A `:` ending `data` (not part of a longer word): `data:[media type][;base64],payload`.
    mutating func dataURISpan(colon i: Int, _ scratch: inout [UInt8], _ budget: inout DecodeBudget, _ spans: inout [DecodedSpan]) -> Int? {
        guard i >= 4, p[i - 4] | 0x20 == UInt8(ascii: "d"), p[i - 3] | 0x20 == UInt8(ascii: "a"),
              p[i - 2] | 0x20 == UInt8(ascii: "t"), p[i - 1] | 0x20 == UInt8(ascii: "a"),
              i == 4 || t[Int(p[i - 5])] & ByteClass.alphanumeric == 0 else { return nil }
        var comma = i + 1
        while comma < n && comma - i <= ReferenceSpanFinder.maximumMediaTypeLength && isMediaTypeByte(p[comma]) { comma += 1 }
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
            guard ReferenceDecoding.base64(p, start..<end, into: &scratch) else { return nil }
        } else {
            while end < n && t[Int(p[end])] & ByteClass.url != 0 { end += 1 }
            // Without a `%XX` the payload is its own text, already scanned as it is.
            guard end > start, budget.take(end - start) else { return nil }
            guard ValueDecoding.percent(p, start..<end, into: &scratch) else { return nil }
            percentTriedUntil = max(percentTriedUntil, end)
        }
        return replace(.dataURI, start..<end, &scratch, &spans) ? end : nil
    }

    func isMediaTypeByte(_ b: UInt8) -> Bool {
        t[Int(b)] & ByteClass.alphanumeric != 0 || b == UInt8(ascii: "/") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: ";") || b == UInt8(ascii: "=") || b == UInt8(ascii: "_")
    }

    // MARK: keeping spans

    /// Keeps the decoded scratch as a span when it is text worth matching, or when binary
    /// spans are wanted and it may hold a nested candidate (a long enough printable run).
    @discardableResult
    mutating func keep(_ encoding: Encoding, _ range: Range<Int>, _ scratch: inout [UInt8], _ spans: inout [DecodedSpan]) -> Bool {
        let text = scratch.withUnsafeBufferPointer { TextCheck.isText($0) && TextCheck.isWorthMatching($0) }
        guard text || (keepBinary && scratch.withUnsafeBufferPointer { ReferenceDecoding.mayHoldEncoding($0) }) else { return false }
        spans.append(DecodedSpan(encoding: encoding, sourceRange: range, bytes: Array(scratch), isText: text))
        floor = range.upperBound
        return true
    }

    /// Keeps a span that encloses earlier runs (a URL, a literal): those runs are dropped,
    /// they are inside its decoded bytes.
    mutating func replace(_ encoding: Encoding, _ range: Range<Int>, _ scratch: inout [UInt8], _ spans: inout [DecodedSpan]) -> Bool {
        let text = scratch.withUnsafeBufferPointer { TextCheck.isText($0) && TextCheck.isWorthMatching($0) }
        guard text || (keepBinary && scratch.withUnsafeBufferPointer { ReferenceDecoding.mayHoldEncoding($0) }) else { return false }
        while spans.count > firstSpan, spans[spans.count - 1].sourceRange.lowerBound >= range.lowerBound { spans.removeLast() }
        spans.append(DecodedSpan(encoding: encoding, sourceRange: range, bytes: Array(scratch), isText: text))
        floor = range.upperBound
        return true
    }
}
