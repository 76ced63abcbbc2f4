#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns byte offsets in a text buffer into 1-based line and column, columns counting
/// Unicode scalars (UTF-8 continuation bytes do not start a column; invalid UTF-8 counts
/// a column per byte that is not a continuation byte, which is what an editor shows as
/// replacement characters).
enum TextPosition {
    struct LineColumn: Equatable { var line: Int; var column: Int }

    /// Newline offsets of one buffer, built on the first position asked for, so a buffer
    /// with many findings costs one pass plus a binary search per finding.
    struct LineIndex {
        private var newlines: [Int] = []
        private var built = false
        /// The last offset located and its column, for the next offset on the same line: a
        /// line with many findings (a minified bundle) would otherwise be counted from its
        /// start for each (a 200 KB line with 1,364 findings: 15% of the scan's time).
        private var last: (line: Int, offset: Int, column: Int, columnsBefore: Int)?

        mutating func reset() { newlines.removeAll(keepingCapacity: true); built = false; last = nil }

        /// - Parameters:
        ///   - linesBefore: newlines in the file before `buffer` starts.
        ///   - columnsBefore: columns of the line `buffer` starts in that lie before it (a
        ///     chunk that starts mid-line; see `columns(before:in:carried:)`).
        mutating func locate(_ offset: Int, in buffer: UnsafeRawBufferPointer, linesBefore: Int,
                             columnsBefore: Int = 0) -> LineColumn {
            if !built {
                let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var i = 0
                while i < buffer.count {
                    // memchr is vectorised; newlines are sparse next to the bytes between them.
                    guard let hit = memchr(p + i, 0x0A, buffer.count - i) else { break }
                    let at = UnsafeRawPointer(hit) - UnsafeRawPointer(p)
                    newlines.append(at)
                    i = at + 1
                }
                built = true
            }
            // Number of newlines before `offset`.
            var lo = 0, hi = newlines.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if newlines[mid] < offset { lo = mid + 1 } else { hi = mid }
            }
            let lineStart = lo == 0 ? 0 : newlines[lo - 1] + 1
            let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var column = lo == 0 ? 1 + columnsBefore : 1
            var j = lineStart
            if let last, last.line == lo, last.columnsBefore == columnsBefore, last.offset <= offset {
                column = last.column
                j = last.offset
            }
            while j < offset {
                if p[j] & 0xC0 != 0x80 { column += 1 }
                j += 1
            }
            last = (lo, offset, column, columnsBefore)
            return LineColumn(line: linesBefore + lo + 1, column: column)
        }
    }

    /// The columns of the line that runs through `end` lying before `end`: what the next
    /// chunk, starting at `end`, passes as `columnsBefore`. `carried` is this buffer's own
    /// `columnsBefore`, which counts when no newline precedes `end` in the buffer.
    static func columns(before end: Int, in buffer: UnsafeRawBufferPointer, carried: Int) -> Int {
        guard let base = buffer.baseAddress else { return carried }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var start = end
        while start > 0 && p[start - 1] != 0x0A { start -= 1 }
        var count = start == 0 ? carried : 0
        for j in start..<end where p[j] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Counts `\n` bytes eight at a time (SWAR: a byte of `w ^ 0x0a0a…` is zero exactly
    /// where `w` holds a newline, and the carry-free test below marks zero bytes only).
    static func countNewlines(_ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let n = buffer.count
        var count = 0
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= n {
            let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (ones &* 0x0A)
            let t = ((w & low7) &+ low7) | w
            count += (~t & high).nonzeroBitCount
            i += 8
        }
        let p = base.assumingMemoryBound(to: UInt8.self)
        while i < n { if p[i] == 0x0A { count += 1 }; i += 1 }
        return count
    }
}
