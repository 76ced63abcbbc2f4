import Decoders

/// What the decoders harness checks for one input, and what the seed replay test runs on
/// every committed seed.
///
/// The input is decoded to depth 3 with the budget the scanner would give it: every span
/// lies inside the buffer, the spans of one level are in order and do not overlap, every
/// chain of encodings is as long as its level, the decoded bytes stay within the budget,
/// decoding the same bytes twice gives the same answer, and every implementation of the
/// candidate search's C pass the processor runs finds the same spans.
public enum DecodersCheck {
    public static let depth = 3

    /// What went wrong, one line each; empty when the input was handled as it must be.
    /// Never quotes the input or what it decodes to.
    public static func problems(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let n = bytes.count

        var finder = SpanFinder()
        var levelBudget = DecodeBudget(maxDepth: 1, bufferSize: n)
        var spans: [DecodedSpan] = []
        bytes.withUnsafeBytes { finder.find($0, keepBinary: true, budget: &levelBudget, into: &spans) }
        // Every implementation of the C pass (scalar, SSE2, AVX2, AVX-512: those the processor
        // runs) finds the same spans.
        for tier in SpanFinder.availableTiers {
            var tierFinder = SpanFinder(tier: tier)
            var tierBudget = DecodeBudget(maxDepth: 1, bufferSize: n)
            var tierSpans: [DecodedSpan] = []
            bytes.withUnsafeBytes { tierFinder.find($0, keepBinary: true, budget: &tierBudget, into: &tierSpans) }
            if tierSpans != spans || tierBudget != levelBudget { problems.append("tier \(tier) of the candidate search found other spans") }
        }
        var previousEnd = 0
        for span in spans {
            if span.sourceRange.lowerBound < previousEnd { problems.append("spans of one level overlap or are out of order") }
            if span.sourceRange.isEmpty || span.sourceRange.upperBound > n { problems.append("a span lies outside the buffer") }
            if span.bytes.isEmpty { problems.append("a span decoded to nothing") }
            if span.bytes.count > span.sourceRange.count { problems.append("a span decoded to more bytes than it holds") }
            previousEnd = span.sourceRange.upperBound
        }

        let initial = DecodeBudget(maxDepth: depth, bufferSize: n)
        var budget = initial
        var decoder = NestedDecoder()
        var texts: [DecodedText] = []
        bytes.withUnsafeBytes { decoder.decode($0, budget: &budget, into: &texts) }
        var total = 0
        for text in texts {
            if text.sourceRange.isEmpty || text.sourceRange.upperBound > n { problems.append("a decoded text's source lies outside the buffer") }
            if !(1...depth).contains(text.encodings.count) { problems.append("a decoded text has \(text.encodings.count) encodings at depth \(depth)") }
            total += text.bytes.count
        }
        if total > initial.remainingBytes || budget.remainingBytes < 0 { problems.append("decoded \(total) bytes, over the budget of \(initial.remainingBytes)") }

        var again = DecodeBudget(maxDepth: depth, bufferSize: n)
        var textsAgain: [DecodedText] = []
        bytes.withUnsafeBytes { decoder.decode($0, budget: &again, into: &textsAgain) }
        if textsAgain != texts || again != budget { problems.append("decoding the same bytes twice gave different answers") }
        return problems
    }
}
