/// `strings -a` for files that are not text and not a known object format: keeps runs of
/// printable ASCII (and tab) of at least `minLength` bytes and turns every other byte into
/// a newline. Offsets are preserved one to one, so a match in the masked copy is at the
/// same offset in the file, and no match can span two runs.
public enum PrintableRuns {
    public static let defaultMinLength = 8

    /// Writes the masked copy of `source` into `target` (same length or longer).
    /// A run touching either end of the buffer is kept whatever its length: it may go on
    /// in the neighbouring chunk.
    public static func mask(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer,
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
