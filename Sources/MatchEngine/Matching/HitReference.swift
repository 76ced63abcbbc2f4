#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffer scanned before and the keyword occurrences found in it (`Matcher.hits`), so a
/// buffer that shares most of its bytes with it (the next version of the same file in a
/// repository's history) is searched only where it differs.
///
/// The two buffers are first matched into equal segments: the common prefix and suffix,
/// then, inside what is left, a block of the old middle found again in the new one and
/// extended both ways, recursively on each side (a few levels deep, which covers the
/// several hunks of a typical commit). An occurrence lying wholly inside an equal segment
/// is the same occurrence in both buffers, shifted; every other one overlaps a gap between
/// segments or straddles a point where two segments meet, so it starts at most
/// `maxKeywordLength - 1` bytes before that gap or point and ends at most that many after,
/// and searching each gap so widened, from the automaton's start state, finds exactly those. The result is the same set of occurrences
/// a search of the whole buffer gives; segments are proven equal byte by byte, no hashing.
public struct HitReference {
    public var bytes: UnsafeRawBufferPointer
    /// `keyword << 40 | end`, in any order.
    public var hits: [UInt64]

    public init(bytes: UnsafeRawBufferPointer, hits: [UInt64]) {
        self.bytes = bytes
        self.hits = hits
    }

    /// An equal stretch: `buffer[at..<at + count] == reference[from..<from + count]`.
    struct Segment { var at: Int; var from: Int; var count: Int }

    /// Calls `hit(keyword, end)` for the occurrences in `buffer`, each once, in no
    /// particular order; returns how many bytes it searched with the automaton.
    @discardableResult
    func forEachHit(in buffer: UnsafeRawBufferPointer, index: KeywordIndex, _ hit: (Int, Int) -> Void) -> Int {
        var segments: [Segment] = []
        HitReference.match(buffer, 0..<buffer.count, bytes, 0..<bytes.count, depth: 6, into: &segments)
        segments.sort { $0.at < $1.at }
        let lengths = index.keywordLengths
        // Occurrences inside an equal segment, from the reference (sorted by end).
        let sorted = hits.sorted { ($0 & 0xFF_FFFF_FFFF) < ($1 & 0xFF_FFFF_FFFF) }
        for seg in segments {
            var lo = 0, hi = sorted.count
            while lo < hi {  // first hit ending after the segment's start
                let mid = (lo + hi) / 2
                if Int(sorted[mid] & 0xFF_FFFF_FFFF) <= seg.from { lo = mid + 1 } else { hi = mid }
            }
            var k = lo
            while k < sorted.count {
                let h = sorted[k]
                let keyword = Int(h >> 40), end = Int(h & 0xFF_FFFF_FFFF)
                if end > seg.from + seg.count { break }
                if end - lengths[keyword] >= seg.from { hit(keyword, end - seg.from + seg.at) }
                k += 1
            }
        }
        // Occurrences overlapping a gap, searched in the gap widened by reach both ways.
        let reach = max(0, index.maxKeywordLength - 1)
        var searched = 0
        func inside(_ start: Int, _ end: Int, _ s: Int) -> Bool {
            // Is [start, end) wholly inside some segment? `s` is the last segment starting at or before `start`.
            s >= 0 && end <= segments[s].at + segments[s].count
        }
        // The gaps between segments, and the points where two segments meet without
        // continuing each other in the reference (an occurrence may straddle those too).
        var gaps: [Range<Int>] = []
        var cursor = 0
        var previous: Segment?
        for seg in segments {
            if seg.at > cursor {
                gaps.append(cursor..<seg.at)
            } else if let p = previous, p.from + p.count != seg.from {
                gaps.append(seg.at..<seg.at)
            }
            cursor = seg.at + seg.count
            previous = seg
        }
        if cursor < buffer.count { gaps.append(cursor..<buffer.count) }
        var widened: [Range<Int>] = []
        for g in gaps {
            let w = max(0, g.lowerBound - reach)..<min(buffer.count, g.upperBound + reach)
            if let last = widened.last, w.lowerBound <= last.upperBound {
                widened[widened.count - 1] = last.lowerBound..<max(last.upperBound, w.upperBound)
            } else {
                widened.append(w)
            }
        }
        for w in widened {
            searched += w.count
            index.forEachHit(UnsafeRawBufferPointer(rebasing: buffer[w])) { keyword, localEnd in
                let end = w.lowerBound + localEnd, start = end - lengths[keyword]
                // Skip those wholly inside a segment: they came from the reference.
                var lo = 0, hi = segments.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if segments[mid].at <= start { lo = mid + 1 } else { hi = mid }
                }
                if !inside(start, end, lo - 1) { hit(keyword, end) }
            }
        }
        return searched
    }

    /// Equal segments between `a[ra]` and `b[rb]`, disjoint in `a`.
    static func match(_ a: UnsafeRawBufferPointer, _ ra: Range<Int>, _ b: UnsafeRawBufferPointer, _ rb: Range<Int>,
                      depth: Int, into segments: inout [Segment]) {
        guard !ra.isEmpty, !rb.isEmpty, let pa = a.baseAddress, let pb = b.baseAddress else { return }
        let prefix = commonPrefix(pa + ra.lowerBound, pb + rb.lowerBound, min(ra.count, rb.count))
        if prefix > 0 { segments.append(Segment(at: ra.lowerBound, from: rb.lowerBound, count: prefix)) }
        let suffix = commonSuffix(pa + ra.upperBound, pb + rb.upperBound, min(ra.count, rb.count) - prefix)
        if suffix > 0 { segments.append(Segment(at: ra.upperBound - suffix, from: rb.upperBound - suffix, count: suffix)) }
        let ma = (ra.lowerBound + prefix)..<(ra.upperBound - suffix)
        let mb = (rb.lowerBound + prefix)..<(rb.upperBound - suffix)
        let anchor = 48
        guard depth > 0, ma.count >= anchor, mb.count >= 2 * anchor else { return }
        // A block from the middle of b's middle, looked for in a's middle.
        let probe = mb.lowerBound + (mb.count - anchor) / 2
        guard let found = find(pb + probe, anchor, in: pa + ma.lowerBound, ma.count) else { return }
        var at = ma.lowerBound + found, from = probe
        var end = at + anchor, fromEnd = probe + anchor
        // Extend both ways while the bytes agree.
        let back = commonSuffix(pa + at, pb + from, min(at - ma.lowerBound, from - mb.lowerBound))
        at -= back; from -= back
        let forward = commonPrefix(pa + end, pb + fromEnd, min(ma.upperBound - end, mb.upperBound - fromEnd))
        end += forward; fromEnd += forward
        segments.append(Segment(at: at, from: from, count: end - at))
        match(a, ma.lowerBound..<at, b, mb.lowerBound..<from, depth: depth - 1, into: &segments)
        match(a, end..<ma.upperBound, b, fromEnd..<mb.upperBound, depth: depth - 1, into: &segments)
    }

    /// Offset of the first occurrence of `needle` in `haystack`: memchr for the needle's
    /// least common byte (by a rough ranking of bytes in source text), memcmp for the rest.
    static func find(_ needle: UnsafeRawPointer, _ count: Int, in haystack: UnsafeRawPointer, _ length: Int) -> Int? {
        guard count > 0, length >= count else { return nil }
        var pick = 0
        var best = Int.max
        for k in 0..<count {
            let rank = commonness[Int(needle.load(fromByteOffset: k, as: UInt8.self))]
            if rank < best { best = rank; pick = k }
        }
        let byte = Int32(needle.load(fromByteOffset: pick, as: UInt8.self))
        var offset = pick
        let last = length - count + pick  // the picked byte's last possible place
        while offset <= last {
            guard let hit = memchr(haystack + offset, byte, last - offset + 1) else { return nil }
            let at = UnsafeRawPointer(hit) - haystack - pick
            if memcmp(haystack + at, needle, count) == 0 { return at }
            offset = at + pick + 1
        }
        return nil
    }

    /// How common each byte is in source text, roughly: whitespace and lowercase letters
    /// most, then digits and common punctuation, uppercase, rare punctuation, the rest.
    static let commonness: [Int] = (0..<256).map { b -> Int in
        switch UInt8(b) {
        case 0x20, 0x0A, 0x09, 0x65, 0x74, 0x61, 0x6F, 0x69, 0x6E, 0x73, 0x72: return 9
        case 0x61...0x7A: return 7
        case 0x28, 0x29, 0x2E, 0x2C, 0x5F, 0x3D, 0x22, 0x27, 0x3A, 0x2F, 0x2D: return 6
        case 0x30...0x39: return 5
        case 0x41...0x5A: return 4
        case 0x21...0x7E: return 3
        default: return 1
        }
    }

    /// Length of the common prefix of `a[0..<limit]` and `b[0..<limit]`.
    static func commonPrefix(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ limit: Int) -> Int {
        var n = 0
        var block = 4096
        while block > 0 {
            while n + block <= limit && memcmp(a + n, b + n, block) == 0 { n += block }
            block >>= 2
        }
        return n
    }

    /// Length of the common suffix of the `limit` bytes before `aEnd` and before `bEnd`.
    static func commonSuffix(_ aEnd: UnsafeRawPointer, _ bEnd: UnsafeRawPointer, _ limit: Int) -> Int {
        var n = 0
        var block = 4096
        while block > 0 {
            while n + block <= limit && memcmp(aEnd - n - block, bEnd - n - block, block) == 0 { n += block }
            block >>= 2
        }
        return n
    }
}
