/// Bounds on decoding one top-level buffer, shared by every level of nesting so the cost is
/// bounded by the buffer's size, never by the depth.
///
/// One level of decoding yields at most as many bytes as it reads (base64 3/4, hex 1/2,
/// percent and escapes at most 1: a `\uXXXX` of 6 bytes is at most 3 bytes of UTF-8), and the
/// spans of one level do not overlap, so depth d costs at most d times the buffer. The
/// default budget, 4 times the buffer, covers every honest input at depth 4 or less (twice
/// the default depth); beyond it the budget, not the depth, stops the work. The 64 MiB cap
/// bounds one buffer's decoded bytes in memory whatever its size (the scanner's chunks are
/// 8 MiB, so the cap is reached only by an explicit larger budget). Gitleaks' issue #2019
/// (recursive decoding at depth 5 reaching 24 GB) is what an unshared per-level bound allows.
public struct DecodeBudget: Sendable, Equatable {
    /// Levels of decoding: 0 decodes nothing, 1 decodes the buffer's spans, 2 also the spans
    /// inside those (`--max-decode-depth`, default 2).
    public let maxDepth: Int
    /// Decoded bytes still allowed for this buffer (every decode counts, kept or not).
    public private(set) var remainingBytes: Int
    /// Set when a span was left undecoded because the budget ran out.
    public private(set) var exhausted = false

    public static let defaultDepth = 2
    public static let bufferMultiple = 4
    public static let maxTotalBytes = 64 << 20

    public init(maxDepth: Int = DecodeBudget.defaultDepth, bufferSize: Int) {
        self.init(maxDepth: maxDepth, totalBytes: min(DecodeBudget.bufferMultiple * max(0, bufferSize), DecodeBudget.maxTotalBytes))
    }

    public init(maxDepth: Int, totalBytes: Int) {
        self.maxDepth = max(0, maxDepth)
        remainingBytes = max(0, totalBytes)
    }

    /// Reserves `count` decoded bytes; false (and `exhausted`) when they do not fit.
    public mutating func take(_ count: Int) -> Bool {
        if count > remainingBytes {
            exhausted = true
            return false
        }
        remainingBytes -= count
        return true
    }
}
