/// UTF-16LE text inside binaries: CFString/NSString literals with non-ASCII content,
/// `__TEXT,__ustring`, `u"..."` literals, Windows-style resources. `strings -a` misses it
/// because every other byte is zero; this decodes the ASCII subset so the same rules match.
public enum UTF16Runs {
    /// Decoded bytes `decodedRange` came from the file at `fileOffset + 2 * (i - decodedRange.lowerBound)`.
    public struct Run: Sendable, Equatable {
        public var decodedRange: Range<Int>
        public var fileOffset: Int

        public init(decodedRange: Range<Int>, fileOffset: Int) {
            self.decodedRange = decodedRange
            self.fileOffset = fileOffset
        }

        /// The file offset of decoded byte `index` (which must lie in `decodedRange`).
        public func fileOffset(ofDecoded index: Int) -> Int {
            fileOffset + 2 * (index - decodedRange.lowerBound)
        }
    }

    /// Appends to `decoded` every run of at least `minLength` code units whose low byte is
    /// printable ASCII (0x20-0x7e or tab) and whose high byte is 0, one run per line ("\n"
    /// after each), and a `Run` per run to `runs`. `bytes[0]` is at file offset `baseOffset`.
    ///
    /// Both alignments are searched because nothing aligns UTF-16 data inside a packed section
    /// or a resource blob. A run of one alignment can never overlap a run of the other (its
    /// zero high bytes are the other's would-be low bytes), so runs come out in file order.
    /// A run cut by the end of `bytes` is reported up to the cut: callers that feed chunks
    /// should overlap them by `2 * maxRunLength` bytes or feed whole regions.
    public static func extract(_ bytes: UnsafeRawBufferPointer, baseOffset: Int, minLength: Int,
                               into decoded: inout [UInt8], runs: inout [Run]) {
        let count = bytes.count
        guard count >= 2 else { return }
        let minimum = max(minLength, 1)
        // Per alignment (index = position & 1): where the current run starts and its length.
        var start = (0, 0)
        var length = (0, 0)

        func flush(_ runStart: Int, _ runLength: Int) {
            guard runLength >= minimum else { return }
            let lower = decoded.count
            decoded.reserveCapacity(lower + runLength + 1)
            var p = runStart
            for _ in 0..<runLength {
                decoded.append(bytes[p])
                p += 2
            }
            runs.append(Run(decodedRange: lower..<(lower + runLength), fileOffset: baseOffset + runStart))
            decoded.append(UInt8(ascii: "\n"))
        }

        var p = 0
        while p < count - 1 {
            let low = bytes[p]
            let isUnit = bytes[p + 1] == 0 && ((low >= 0x20 && low <= 0x7e) || low == 0x09)
            if p & 1 == 0 {
                if isUnit {
                    if length.0 == 0 { start.0 = p }
                    length.0 += 1
                } else if length.0 > 0 {
                    flush(start.0, length.0)
                    length.0 = 0
                }
            } else {
                if isUnit {
                    if length.1 == 0 { start.1 = p }
                    length.1 += 1
                } else if length.1 > 0 {
                    flush(start.1, length.1)
                    length.1 = 0
                }
            }
            p += 1
        }
        // At most one alignment can still be in a run that began before the other's; flush
        // the earlier one first to keep file order.
        if length.0 > 0 && length.1 > 0 && start.1 < start.0 {
            flush(start.1, length.1)
            flush(start.0, length.0)
        } else {
            if length.0 > 0 { flush(start.0, length.0) }
            if length.1 > 0 { flush(start.1, length.1) }
        }
    }
}
