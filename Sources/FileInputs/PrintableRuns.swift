/// `strings -a` for files that are not text and not a known object format: keeps runs of
/// printable ASCII (and tab) of at least `minLength` bytes and turns every other byte into
/// a newline. Offsets are preserved one to one, so a match in the masked copy is at the
/// same offset in the file, and no match can span two runs.
public enum PrintableRuns {
    public static let defaultMinLength = 8

    /// Writes the masked copy of `source` into `target` (same length or longer).
    /// A run touching either end of the buffer is kept whatever its length: it may go on
    /// in the neighbouring chunk.
    ///
    /// 64 bytes at a time, without a branch per byte: each block's printable bytes become a
    /// bit mask, the bytes inside a window of `minLength` printable ones are found by shifting
    /// and and-ing that mask (and the next block's, for windows crossing into it), spread back
    /// over the window by shifting and or-ing (with the previous block's windows), and each
    /// 8-byte word is written as its kept bytes or newlines. The byte-at-a-time loop before it
    /// was the largest cost of scanning archives of binaries besides decompression: 11.5% of
    /// `scan --jobs 1`'s CPU over the archive benchmark (`perf record`). Lengths over 64
    /// (windows longer than one block's lookahead) take `maskBytewise`, the same output.
    public static func mask(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer,
                            minLength: Int = defaultMinLength) {
        let n = source.count
        precondition(target.count >= n)
        guard n > 0 else { return }
        let length = max(minLength, 1)
        guard length <= 64, n >= 64 else {
            maskBytewise(source, into: target, minLength: minLength)
            return
        }
        let src = source.baseAddress!, dst = target.baseAddress!
        let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        let blocks = (n + 63) / 64
        func bits(_ block: Int) -> UInt64 {
            let start = block &* 64
            guard start < n else { return 0 }
            var r: UInt64 = 0
            if start + 64 <= n {
                for w in 0..<8 {
                    let word = UInt64(littleEndian: src.loadUnaligned(fromByteOffset: start &+ 8 &* w, as: UInt64.self))
                    r |= gather(printableBytes(word)) << (8 &* UInt64(w))
                }
            } else {
                for i in start..<n where isPrintable(src.load(fromByteOffset: i, as: UInt8.self)) { r |= 1 << UInt64(i - start) }
            }
            return r
        }
        var current = bits(0), next = bits(1)
        var previousStarts: UInt64 = 0
        for block in 0..<blocks {
            // Where a window of `length` printable bytes starts (the 128 bits of this block and
            // the next, shifted right; doubling the window each step).
            var lo = current, hi = next
            var have = 1
            while have < length {
                let s = UInt64(min(have, length - have))
                lo &= (lo >> s) | (hi << (64 &- s))
                hi &= hi >> s
                have &+= Int(s)
            }
            let starts = lo
            // Every byte inside such a window (this block and the previous one's windows,
            // shifted left).
            var keep = starts, below = previousStarts
            have = 1
            while have < length {
                let s = UInt64(min(have, length - have))
                keep |= (keep << s) | (below >> (64 &- s))
                below |= below << s
                have &+= Int(s)
            }
            previousStarts = starts
            let start = block &* 64
            if start + 64 <= n {
                for w in 0..<8 {
                    let at = start &+ 8 &* w
                    let word = UInt64(littleEndian: src.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    let kept = spread((keep >> (8 &* UInt64(w))) & 0xFF)
                    dst.storeBytes(of: ((word & kept) | (newlines & ~kept)).littleEndian, toByteOffset: at, as: UInt64.self)
                }
            } else {
                for i in start..<n {
                    let b = src.load(fromByteOffset: i, as: UInt8.self)
                    dst.storeBytes(of: (keep >> UInt64(i - start)) & 1 != 0 ? b : 0x0A, toByteOffset: i, as: UInt8.self)
                }
            }
            current = next
            next = bits(block + 2)
        }
        // The runs touching the ends, when shorter than `length` (a longer one is kept above).
        var head = 0
        while head < length, head < n, isPrintable(src.load(fromByteOffset: head, as: UInt8.self)) { head += 1 }
        if head < length { dst.copyMemory(from: src, byteCount: head) }
        var tail = 0
        while tail < length, tail < n, isPrintable(src.load(fromByteOffset: n - 1 - tail, as: UInt8.self)) { tail += 1 }
        if tail < length { (dst + (n - tail)).copyMemory(from: src + (n - tail), byteCount: tail) }
    }

    /// Bit 7 of each byte of `word` that `isPrintable` (0x20-0x7e, or tab), exactly: per byte,
    /// with no carry between bytes (the low 7 bits plus at most 0x60 stay below 0x100).
    @inline(__always) static func printableBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080, low7: UInt64 = 0x7f7f_7f7f_7f7f_7f7f
        let low = word & low7
        let printable = ~word & (low &+ 0x60 &* ones) & ~(low &+ ones) & high
        let tabs = word ^ (0x09 &* ones)
        let tab = ~(((tabs & low7) &+ low7) | tabs | low7)
        return printable | tab
    }

    /// The 8 high bits of `word`'s bytes as one byte (byte k's bit 7 becomes bit k).
    @inline(__always) static func gather(_ word: UInt64) -> UInt64 {
        ((word >> 7) &* 0x0102_0408_1020_4080) >> 56
    }

    /// 0xFF in byte k for each bit k of `bits` (0-255) set, 0 elsewhere.
    @inline(__always) static func spread(_ bits: UInt64) -> UInt64 {
        // Byte k keeps bit k of `bits`; a nonzero byte (at most 0x80) then sets its bit 7.
        let picked = (bits &* 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201
        return ((((picked &+ 0x7f7f_7f7f_7f7f_7f7f) | picked) & 0x8080_8080_8080_8080) >> 7) &* 0xFF
    }

    /// The same output a byte at a time (any `minLength`; short buffers).
    public static func maskBytewise(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer,
                                    minLength: Int = defaultMinLength) {
        let n = source.count
        precondition(target.count >= n)
        guard n > 0 else { return }
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = target.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var i = 0
        while i < n {
            let b = src[i]
            if isPrintable(b) {
                var j = i
                while j < n && isPrintable(src[j]) { j += 1 }
                let keep = j - i >= minLength || i == 0 || j == n
                if keep {
                    (dst + i).update(from: src + i, count: j - i)
                } else {
                    (dst + i).update(repeating: 0x0A, count: j - i)
                }
                i = j
            } else {
                dst[i] = 0x0A
                i += 1
            }
        }
    }

    @inline(__always) static func isPrintable(_ b: UInt8) -> Bool { (b >= 0x20 && b < 0x7F) || b == 0x09 }
}
