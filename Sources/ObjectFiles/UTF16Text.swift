/// Finds the ASCII subset of UTF-16 text (little- and big-endian) in binary bytes, so the
/// same rules match it as plain text.
///
/// Both byte orders and both alignments are searched in one pass over maximal
/// *alternating segments*: runs of bytes that alternate between 0 and a printable ASCII
/// byte (0x20-0x7e or tab). Nothing aligns UTF-16 data inside a packed section or a
/// resource. A segment is read as little-endian (`k\0e\0y\0`) unless it starts with a 0
/// and ends with a printable byte (`\0k\0e\0y`): only then is big-endian the reading that
/// keeps every character (read as little-endian it would lose the last one). Each segment
/// yields one run, so the two byte orders never report the same characters twice, and for
/// little-endian text the runs are the ones keyshape always found (a segment's leading 0,
/// the previous string's terminator, is skipped).
///
/// A transform of binary bytes, so it lives with the object-file parsers: the scanner's
/// UTF-16 transform and the ObjectFiles fuzzer run this one extractor.
public enum UTF16Text {
    public struct Run: Sendable, Equatable {
        /// Where the run's characters are in the decoded bytes.
        public var decodedRange: Range<Int>
        /// Offset in the source of the run's first code unit.
        public var sourceOffset: Int

        public init(decodedRange: Range<Int>, sourceOffset: Int) {
            self.decodedRange = decodedRange
            self.sourceOffset = sourceOffset
        }

        /// The source offset of the code unit decoded byte `index` (in `decodedRange`) came from.
        public func sourceOffset(ofDecoded index: Int) -> Int { sourceOffset + 2 * (index - decodedRange.lowerBound) }
    }

    @inline(__always) static func isText(_ b: UInt8) -> Bool { (b >= 0x20 && b <= 0x7e) || b == 0x09 }

    /// Appends each run of at least `minLength` code units to `decoded` (one run a line:
    /// "\n" after each) and its `Run` to `runs`, in source order.
    public static func extract(_ bytes: UnsafeRawBufferPointer, minLength: Int,
                               into decoded: inout [UInt8], runs: inout [Run]) {
        guard bytes.count >= 2 else { return }
        let minimum = max(minLength, 1)
        if minimum >= 8 {
            extractSparse(bytes, minimum: minimum, into: &decoded, runs: &runs)
        } else {
            extractWordwise(bytes, minimum: minimum, into: &decoded, runs: &runs)
        }
    }

    /// For runs of 8 code units or more (the default minimum), a test of one 8-byte word
    /// at a time that nearly all binary bytes fail: a segment yielding such a run is 16
    /// bytes or longer, so it holds a whole word of any 8-byte grid laid from a segment
    /// boundary, and inside a segment zeros and text bytes alternate, so that word's zero
    /// bytes are exactly its even ones or exactly its odd ones. Words of any other pattern
    /// are passed over; at a word of that pattern the segment holding it is found (it begins
    /// at most 7 bytes back, or the grid word before would have matched too) and the walk
    /// goes on byte by byte, as `extractWordwise` does, until a segment boundary lies past
    /// that word. The segments passed over are shorter than 16 bytes and yield nothing.
    ///
    /// Machine code holds a 0 next to a printable byte every few bytes, so the word test of
    /// `extractWordwise` (any such pair) sends most of it to the byte walk: over the archive
    /// benchmark's binaries this pass was 5.6% of `scan --jobs 1`'s CPU (`perf record`),
    /// the largest cost besides decompression and the keyword pass; this way, 1.2%.
    static func extractSparse(_ bytes: UnsafeRawBufferPointer, minimum: Int,
                              into decoded: inout [UInt8], runs: inout [Run]) {
        let n = bytes.count
        // Bit 7 of each zero byte when exactly the even (or exactly the odd) bytes are 0.
        let evenZeros: UInt64 = 0x0080_0080_0080_0080, oddZeros: UInt64 = 0x8000_8000_8000_8000
        var i = 0  // a segment boundary: bytes i-1 and i are no code unit
        while true {
            var w = i
            while w &+ 16 <= n {
                let a = zeroBytes(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: w, as: UInt64.self)))
                let b = zeroBytes(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: w &+ 8, as: UInt64.self)))
                if a == evenZeros || a == oddZeros { break }
                if b == evenZeros || b == oddZeros { w &+= 8; break }
                w &+= 16
            }
            if w &+ 16 > n {
                // The last word or so (a word past the last full one holds no whole segment
                // of 16 bytes that an earlier word did not).
                while w &+ 8 <= n {
                    let a = zeroBytes(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: w, as: UInt64.self)))
                    if a == evenZeros || a == oddZeros { break }
                    w &+= 8
                }
                if w &+ 8 > n { return }
            }
            // The segment holding byte w starts at s (at a boundary, never before i).
            var s = w
            while s > i, isCodeUnit(bytes[s - 1], bytes[s]) { s -= 1 }
            i = s
            while i < w &+ 8 { i = segment(bytes, from: i, minimum: minimum, into: &decoded, runs: &runs) }
        }
    }

    /// Bytes `a`, `b` are a code unit of either byte order: one is 0, the other text.
    @inline(__always) static func isCodeUnit(_ a: UInt8, _ b: UInt8) -> Bool {
        (a == 0 && isText(b)) || (isText(a) && b == 0)
    }

    /// The segment starting at `i` (a segment boundary): its run appended when it has at
    /// least `minimum` code units. Returns where the next segment starts.
    @inline(__always) static func segment(_ bytes: UnsafeRawBufferPointer, from i: Int, minimum: Int,
                                          into decoded: inout [UInt8], runs: inout [Run]) -> Int {
        let n = bytes.count
        let first = bytes[i]
        guard first == 0 || isText(first) else { return i + 1 }
        var j = i + 1
        while j < n, isCodeUnit(bytes[j - 1], bytes[j]) { j += 1 }
        // The segment is bytes[i..<j].
        let isBE = first == 0 && bytes[j - 1] != 0
        let start = isBE ? i : (first == 0 ? i + 1 : i)
        let units = (j - start) / 2
        if units >= minimum {
            let lower = decoded.count
            var p = isBE ? start + 1 : start
            for _ in 0..<units { decoded.append(bytes[p]); p += 2 }
            runs.append(Run(decodedRange: lower..<(lower + units), sourceOffset: start))
            decoded.append(UInt8(ascii: "\n"))
        }
        // A segment ends where two zeros or two printable bytes meet: the second of them
        // may start the next segment.
        return j
    }

    /// Any minimum: each 8-byte word tested for a code unit of either order anywhere in it.
    static func extractWordwise(_ bytes: UnsafeRawBufferPointer, minimum: Int,
                                into decoded: inout [UInt8], runs: inout [Run]) {
        let n = bytes.count
        var i = 0
        while i < n {
            // The fast path. A segment starting at p is longer than one byte only when
            // bytes p and p+1 are a code unit (one of them 0, the other text); a segment of
            // one byte yields no run, and the next segment starts right after it. So every
            // position before the first such pair in the 8 bytes from i can be passed over
            // with no change of output, and when none of the 7 pairs inside the word is one,
            // the scan goes on at the word's last byte (which may pair with the next word's
            // first). Binary bytes seldom hold such a pair: over /usr/lib/python3.11's 717
            // binary files (48 MB, mostly .pyc) this pass takes 0.09 s of CPU instead of
            // 0.36 s (release build, median of 5), and its share of a `scan --jobs 1` there
            // fell from 39% to 15% (`perf record`).
            if i &+ 8 <= n {
                let pairs = codeUnitPairs(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                if pairs == 0 { i &+= 7; continue }
                i &+= pairs.trailingZeroBitCount &>> 3
            }
            i = segment(bytes, from: i, minimum: minimum, into: &decoded, runs: &runs)
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080
    private static let low7: UInt64 = 0x7f7f_7f7f_7f7f_7f7f

    /// Bit 7 of byte k (k = 0...6, byte 0 the lowest) is set when bytes k and k+1 of `word`
    /// are a code unit of either byte order: one is 0 and the other `isText`.
    @inline(__always) static func codeUnitPairs(_ word: UInt64) -> UInt64 {
        let zero = zeroBytes(word)
        // Per byte, with no carry between bytes (the low 7 bits plus at most 0x60 stay below
        // 0x100): bit 7 of (b & 0x7f) + 0x60 says b & 0x7f >= 0x20, bit 7 of (b & 0x7f) + 1
        // says b & 0x7f >= 0x7f, and bit 7 of ~b says b < 0x80.
        let low = word & low7
        let printable = ~word & (low &+ 0x60 &* ones) & ~(low &+ ones) & high
        let text = printable | zeroBytes(word ^ (0x09 &* ones))
        return ((zero & (text &>> 8)) | (text & (zero &>> 8))) & high
    }

    /// Bit 7 of each byte of `word` that is 0, exactly (no borrow reaches a neighbour).
    @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low7) &+ low7) | word | low7)
    }
}
