/// Decodes a top-level buffer to `budget.maxDepth` levels: the spans of the buffer, then the
/// spans inside each decoded span, and so on, all charged to one budget.
///
/// Every decoded span that is text worth matching is returned, at every level, with the
/// chain of encodings (outer first) and the outermost span's range in the top-level buffer.
/// A span that is not text (a base64 image, a digest) is not returned; below the last level
/// it is still searched for encodings nested inside it, and those are returned.
public struct NestedDecoder {
    private var finder = SpanFinder()

    public init() {}

    /// Appends to `out`, outer spans before the spans inside them.
    public mutating func decode(_ buffer: UnsafeRawBufferPointer, budget: inout DecodeBudget, into out: inout [DecodedText]) {
        if budget.maxDepth == 0 { return }
        level(buffer, depth: 1, chain: [], ranges: [], budget: &budget, out: &out)
    }

    private mutating func level(_ buffer: UnsafeRawBufferPointer, depth: Int, chain: [Encoding], ranges: [Range<Int>],
                                budget: inout DecodeBudget, out: inout [DecodedText]) {
        let deeper = depth < budget.maxDepth
        // Empty until a span is kept: no allocation for a buffer without any.
        var spans: [DecodedSpan] = []
        finder.find(buffer, keepBinary: deeper, budget: &budget, into: &spans)
        for span in spans {
            let encodings = chain + [span.encoding]
            let levelRanges = ranges + [span.sourceRange]
            if span.isText { out.append(DecodedText(encodings: encodings, levelRanges: levelRanges, bytes: span.bytes)) }
            if deeper {
                span.bytes.withUnsafeBytes { level($0, depth: depth + 1, chain: encodings, ranges: levelRanges, budget: &budget, out: &out) }
            }
        }
    }
}
