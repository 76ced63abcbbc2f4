/// The keyword pass over a buffer most of whose bytes are one filler byte that no keyword
/// holds: a binary's printable-run mask, in which every byte outside a run of text is a
/// newline. After such a byte the automaton is back in its start state, so an occurrence
/// lies wholly inside one stretch between fillers: the stretches are packed into one buffer
/// (a filler after each), the automaton runs over that, and each hit is mapped back to the
/// stretch it came from. The same occurrences as `forEachHit` over the whole buffer, each
/// once, in no particular order.
///
/// Why: the automaton costs the same for a filler byte as for any other, and machine code
/// is mostly filler once masked (libLLVM-15.so.1 keeps 7.6% of its 117 MB in 344k runs, the
/// JRE's modules image 41%). The keyword pass over binary members was 5.1% of
/// `scan --jobs 1`'s CPU over the archive benchmark (`perf record`).
extension KeywordIndex {
    /// Reusable storage for the packed stretches, one per worker (the matcher's).
    public struct SparseScratch {
        var packed: [UInt8] = []
        /// Per stretch: where it starts in the buffer, and in `packed`.
        var starts: [Int] = []
        var packedStarts: [Int] = []

        public init() {}
    }

    /// Buffers shorter than this take the plain pass: packing saves nothing there (and the
    /// plain pass splits into four streams only from 1,024 bytes on).
    public static let sparseMinimum = 4096

    /// Whether no keyword holds `byte` in either case: the automaton is in its start state
    /// after it.
    public func separates(_ byte: UInt8) -> Bool { byteClass[Int(byte)] == 0 }

    /// Calls `hit(keywordId, end)` for every occurrence of every keyword in `buffer`, as
    /// `forEachHit(_:_:)` does, for a buffer mostly made of `filler`.
    public func forEachHit(_ buffer: UnsafeRawBufferPointer, sparse filler: UInt8, scratch: inout SparseScratch,
                           _ hit: (Int, Int) -> Void) {
        let n = buffer.count
        guard n >= KeywordIndex.sparseMinimum, !keywords.isEmpty, separates(filler) else { return forEachHit(buffer, hit) }
        scratch.packed.removeAll(keepingCapacity: true)
        scratch.starts.removeAll(keepingCapacity: true)
        scratch.packedStarts.removeAll(keepingCapacity: true)
        let p = buffer.baseAddress!
        let fillers = UInt64(filler) &* 0x0101_0101_0101_0101
        var i = 0
        while i < n {
            // Past the fillers, a word at a time, then to the stretch's first byte.
            while i &+ 8 <= n, p.loadUnaligned(fromByteOffset: i, as: UInt64.self) == fillers { i &+= 8 }
            while i < n, p.load(fromByteOffset: i, as: UInt8.self) == filler { i &+= 1 }
            guard i < n else { break }
            let start = i
            // To the next filler: words that hold none, then byte by byte.
            while i &+ 8 <= n, KeywordIndex.zeroBytes(p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ fillers) == 0 { i &+= 8 }
            while i < n, p.load(fromByteOffset: i, as: UInt8.self) != filler { i &+= 1 }
            scratch.starts.append(start)
            scratch.packedStarts.append(scratch.packed.count)
            scratch.packed.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<i]))
            scratch.packed.append(filler)
        }
        let starts = scratch.starts, packedStarts = scratch.packedStarts
        guard !starts.isEmpty else { return }
        scratch.packed.withUnsafeBytes { packed in
            forEachHit(packed) { keyword, end in
                // The stretch holding the occurrence: the last one starting before its end.
                var lo = 0, hi = packedStarts.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if packedStarts[mid] < end { lo = mid + 1 } else { hi = mid }
                }
                hit(keyword, starts[lo - 1] + (end - packedStarts[lo - 1]))
            }
        }
    }

    /// Bit 7 of each byte of `word` that is 0, exactly (no borrow reaches a neighbour).
    @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7f7f_7f7f_7f7f_7f7f
        return ~(((word & low7) &+ low7) | word | low7)
    }
}
