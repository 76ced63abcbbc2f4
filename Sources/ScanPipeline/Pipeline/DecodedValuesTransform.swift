import Decoders

/// Encoded values in text (base64 and base64url, hex, percent-encoding, JSON and C escapes,
/// `data:` URIs), decoded by the Decoders module to `--max-decode-depth` levels and matched
/// as text: a finding is reported at the encoded text's span in the source, its provenance
/// one `decoded` step per encoding, outer first.
///
/// Binary buffers are not decoded (their printable runs are what the matcher sees; a base64
/// string inside a binary is left to its raw form). The decoded bytes of one buffer are
/// bounded by one `DecodeBudget` across all levels (4 times the buffer, at most 64 MiB):
/// when it runs out the rest of the buffer's encoded values go undecoded, and the pipeline
/// reports that as an error entry (`problem`), never silently. At the default depth it
/// cannot run out (two levels decode at most twice the buffer).
final class DecodedValuesTransform: BufferTransform {
    let maxDepth: Int
    private var decoder = NestedDecoder()
    private var texts: [DecodedText] = []
    private(set) var problem: String?

    init(maxDepth: Int) {
        self.maxDepth = maxDepth
    }

    func applies(toBinary: Bool) -> Bool { !toBinary && maxDepth > 0 }

    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, _ body: (DerivedBuffer) -> Void) {
        texts.removeAll(keepingCapacity: true)
        var budget = DecodeBudget(maxDepth: maxDepth, bufferSize: source.count)
        decoder.decode(source, budget: &budget, into: &texts)
        problem = budget.exhausted
            ? "decoding stopped at its budget (\(DecodeBudget.bufferMultiple) times the buffer, at most \(DecodeBudget.maxTotalBytes >> 20) MiB): encoded values nested \(maxDepth) deep were not all decoded (lower --max-decode-depth)"
            : nil
        // A span starting in the overlap with the next read is that read's to report.
        for text in texts where own.contains(text.sourceRange.lowerBound) {
            let span = text.sourceRange
            let steps = zip(text.encodings, text.levelRanges).map { ProvenanceStep.decoded(encoding: $0.rawValue, sourceRange: $1) }
            text.bytes.withUnsafeBytes { bytes in
                body(DerivedBuffer(bytes: bytes, sourceSpan: { _ in span }, steps: steps))
            }
        }
    }
}
