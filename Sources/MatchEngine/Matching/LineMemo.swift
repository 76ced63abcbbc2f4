import Foundation

/// The line around each keyword hit, for the matcher's windows: where the line starts (at
/// most `Matcher.lookBehind` bytes back) and where it ends (at most `Matcher.lookAhead` on),
/// with what the searches for earlier hits already learned kept, so that hits on one long
/// line (a megabyte of `A`, which holds a keyword at every byte) cost the line's length once
/// rather than the two bounds at every hit. For hits apart, each search reads what it read
/// before, no more.
///
/// `KeywordIndex.forEachHit` runs four streams, a quarter of the buffer each, and reports
/// their hits interleaved: what is learned is kept per quarter, where each stream's hits
/// come in order of their end. A hit that starts before the last one of its quarter (a
/// shorter keyword ending later, or another order of hits) takes the plain search.
struct LineMemo {
    let base: UnsafeRawPointer
    let n: Int
    /// A quarter of the buffer, as the keyword pass splits it (none under 1,024 bytes).
    private let quarter: Int
    private var slots = (Slot(), Slot(), Slot(), Slot())

    init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        n = buffer.count
        quarter = n >= 1024 ? n / 4 : Int.max
    }

    /// The start of the line that holds `start`, no further back than `floor`: the first byte
    /// after the last newline before `start`, or `floor`.
    mutating func lineStart(before start: Int, floor: Int) -> Int {
        let base = base
        return withSlot(start) { $0.lineStart(base, before: start, floor: floor) }
    }

    /// The first newline at or after `end` and before `limit`, or `limit`.
    mutating func lineEnd(from end: Int, limit: Int) -> Int {
        let base = base
        return withSlot(end) { $0.lineEnd(base, from: end, limit: limit) }
    }

    private mutating func withSlot(_ at: Int, _ body: (inout Slot) -> Int) -> Int {
        switch min(3, at / quarter) {
        case 0: return body(&slots.0)
        case 1: return body(&slots.1)
        case 2: return body(&slots.2)
        default: return body(&slots.3)
        }
    }

    /// What one quarter's searches learned.
    struct Slot {
        /// No newline in `clearFrom..<clearTo`. `clearFrom` is a line's start when `exact`,
        /// else only where an earlier search stopped at its bound.
        var clearFrom = 0, clearTo = 0
        var exact = true
        /// No newline in `aheadFrom..<aheadTo`; a newline at `aheadTo` when `newlineAtEnd`.
        var aheadFrom = 0, aheadTo = 0
        var newlineAtEnd = false

        mutating func lineStart(_ base: UnsafeRawPointer, before start: Int, floor: Int) -> Int {
            guard start >= clearTo else { return Slot.search(base, from: start, down: floor) }
            // The bytes since the last search first.
            let known = max(floor, clearTo)
            var lo = Slot.search(base, from: start, down: known)
            if lo > known || lo == floor {
                clearFrom = lo; exact = lo > floor || lo == 0; clearTo = start
                return lo
            }
            // None since `clearTo`, none in `clearFrom..<clearTo` either.
            clearTo = start
            if exact || clearFrom <= floor { return max(floor, clearFrom) }
            lo = Slot.search(base, from: clearFrom, down: floor)
            clearFrom = lo; exact = lo > floor || lo == 0
            return lo
        }

        static func search(_ base: UnsafeRawPointer, from start: Int, down floor: Int) -> Int {
            var lo = start
            while lo > floor && base.load(fromByteOffset: lo - 1, as: UInt8.self) != 0x0A { lo -= 1 }
            return lo
        }

        mutating func lineEnd(_ base: UnsafeRawPointer, from end: Int, limit: Int) -> Int {
            if end >= aheadFrom && end <= aheadTo {
                if newlineAtEnd { return min(limit, aheadTo) }
                if limit <= aheadTo { return limit }
                return extend(base, from: aheadTo, limit: limit)
            }
            aheadFrom = end
            return extend(base, from: end, limit: limit)
        }

        private mutating func extend(_ base: UnsafeRawPointer, from start: Int, limit: Int) -> Int {
            if start < limit, let nl = memchr(base + start, 0x0A, limit - start) {
                aheadTo = UnsafeRawPointer(nl) - base
                newlineAtEnd = true
                return aheadTo
            }
            aheadTo = max(start, limit)
            newlineAtEnd = false
            return limit
        }
    }
}
