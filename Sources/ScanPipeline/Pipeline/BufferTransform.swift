import ScanCore
import ObjectFiles

/// How a finding's provenance nests inside the buffer it was found in: what a transform
/// adds on the way from the input's bytes to the bytes the matcher saw. Applied outermost
/// first (`ProvenanceStep.apply`).
enum ProvenanceStep: Sendable, Hashable {
    /// A member of an archive held by the buffer.
    case archiveMember(path: [UInt8])
    /// Text decoded from the source bytes `sourceRange` (offsets in the buffer that held the
    /// encoded text) with `encoding`.
    case decoded(encoding: String, sourceRange: Range<Int>)

    static func apply(_ steps: [ProvenanceStep], to provenance: Provenance) -> Provenance {
        steps.reduce(provenance) { parent, step in
            switch step {
            case .archiveMember(let path): return .archiveMember(parent: parent, member: path)
            case .decoded(let encoding, let range): return .decoded(parent: parent, encoding: encoding, sourceRange: range)
            }
        }
    }
}

/// One buffer a transform derived from its source: the bytes the matcher runs on, and the
/// way back from a secret's span in them to the source buffer.
struct DerivedBuffer {
    var bytes: UnsafeRawBufferPointer
    /// The source bytes a derived span came from (offsets in the source buffer), or nil
    /// when the span is not this read's to report (it starts in bytes a neighbouring read
    /// answers for).
    var sourceSpan: (Range<Int>) -> Range<Int>?
    /// What the derived buffer adds to the provenance (none for a view of the same bytes,
    /// such as UTF-16 runs; a `decoded` or `archiveMember` step otherwise).
    var step: ProvenanceStep?
    /// Further steps after `step`, outer first: one per encoding of a value decoded several
    /// times over (base64 of a percent-encoded URL).
    var steps: [ProvenanceStep] = []
    /// Whether the derived bytes are text (line and column) or go through the binary
    /// stages again (an archive member's bytes would).
    var isText = true
}

/// The transform seam: a stage that takes a buffer and yields derived buffers with an
/// offset map back to their source. `BufferPipeline` runs every transform of its list on
/// each buffer (after the matcher ran on the buffer itself) and the matcher on each
/// derived buffer; a finding there is reported at its source bytes
/// (`DerivedBuffer.sourceSpan`), in the source's binary place when the source is binary,
/// its provenance extended by `DerivedBuffer.step`, and its secret hash computed from the
/// derived bytes (the value the rule saw), so the same key hashes the same however it
/// was stored.
///
/// To add a transform (a decoder, another reading of the same bytes; a container format that
/// replaces an input's own scan, such as an archive, is a `ContainerStage` in
/// `ScanPipeline/Containers/` instead):
/// 1. write a `final class` conforming to `BufferTransform` in `ScanPipeline/Pipeline/`
///    (or a module of its own that ScanPipeline depends on, keeping the class here thin);
///    `applies(toBinary:)` says which buffers it runs on; `derive` calls its callback once
///    per derived buffer, the buffer valid only during the call;
/// 2. give it a `ProvenanceStep` when it changes where the secret is (a decoded span: the
///    encoding and the source range; a member: its path), or none when the derived bytes
///    are a re-reading of the same place (UTF-16 runs);
/// 3. add it to `BufferPipeline.standardTransforms` (its order is the order they run),
///    bounding its own depth and output size by the options it is given;
/// 4. report only derived spans starting in `own` (the bytes this read answers for), so a
///    chunked input does not report a span twice from two overlapping reads.
/// Every input (files, blobs, staged files, `rules check`) then gets it at once.
protocol BufferTransform: AnyObject {
    func applies(toBinary: Bool) -> Bool
    /// - Parameters:
    ///   - source: the buffer as read (not the printable-run mask).
    ///   - baseOffset: the input offset of `source[0]` (a chunk's place in its file).
    ///   - own: the offsets in `source` this read reports for.
    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, _ body: (DerivedBuffer) -> Void)
    /// After `derive`: what it could not do with that buffer (an error entry for the input),
    /// nil when it did all of it.
    var problem: String? { get }
}

extension BufferTransform {
    var problem: String? { nil }

    /// The call the pipeline makes: `layout` is the input's binary layout (nil for text), for
    /// a transform that reads what the layout stage parsed (`AppStringsTransform`); the others
    /// take the plain `derive`.
    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, layout: BinaryLayout?,
                _ body: (DerivedBuffer) -> Void) {
        if let self = self as? LayoutTransform {
            self.derive(from: source, baseOffset: baseOffset, own: own, layout: layout, body)
        } else {
            derive(from: source, baseOffset: baseOffset, own: own, body)
        }
    }
}

/// A transform that needs the layout stage's result (the strings of an app-format file).
protocol LayoutTransform: BufferTransform {
    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, layout: BinaryLayout?,
                _ body: (DerivedBuffer) -> Void)
}

/// Text stored as UTF-16 (CFString literals, `__ustring`, resources, Java class files'
/// and Windows resources' strings): the ASCII subset decoded, matched as text and
/// reported at its bytes in the source.
///
/// One transform for both byte orders (one pass over the bytes, see `UTF16Text`).
final class UTF16RunsTransform: BufferTransform {
    let minLength: Int
    private var decoded: [UInt8] = []
    private var runs: [UTF16Text.Run] = []

    init(minLength: Int) {
        self.minLength = minLength
    }

    func applies(toBinary: Bool) -> Bool { toBinary }

    func derive(from source: UnsafeRawBufferPointer, baseOffset: Int, own: Range<Int>, _ body: (DerivedBuffer) -> Void) {
        decoded.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        UTF16Text.extract(source, minLength: minLength, into: &decoded, runs: &runs)
        guard !runs.isEmpty else { return }
        let runs = self.runs
        decoded.withUnsafeBytes { buffer in
            body(DerivedBuffer(bytes: buffer, sourceSpan: { span in
                // The run holding the secret's first decoded byte (runs are in decoded order).
                var lo = 0, hi = runs.count
                while lo < hi { let mid = (lo + hi) / 2; if runs[mid].decodedRange.upperBound <= span.lowerBound { lo = mid + 1 } else { hi = mid } }
                guard lo < runs.count, runs[lo].decodedRange.contains(span.lowerBound) else { return nil }
                // Only runs starting in this read's own bytes; the overlap belongs to the next.
                guard own.contains(runs[lo].sourceOffset) else { return nil }
                let start = runs[lo].sourceOffset(ofDecoded: span.lowerBound)
                return start..<(start + 2 * span.count)
            }, step: nil))
        }
    }
}
