import Decoders
import FileInputs
import ScanCore
import MatchEngine

/// The one per-buffer pipeline every input feeds, through the front (`InputFront`: folder
/// files and their chunks, history blobs whole or streamed, staged files, archive members),
/// and `rules check` examples and commit texts directly:
///
///   (the front has sniffed and laid out the bytes) -> matcher on the buffer (binary: its
///   printable runs) -> transforms (`BufferTransform`: UTF-16 runs, decoded values) -> matcher on each derived
///   buffer -> inline allow on the original line, positions, binary place, secret hash.
///
/// What comes out is a `BufferFinding` per secret, in buffer terms; the caller adds the
/// provenance and hands it to its `FindingBuilder`. One per worker thread.
final class BufferPipeline {
    let scanner: BufferScanner
    let options: ScanOptions
    let transforms: [BufferTransform]
    private var sourceLines = TextPosition.LineIndex()

    /// The transforms every pipeline runs, in order (see `BufferTransform` to add one).
    static func standardTransforms(_ options: ScanOptions) -> [BufferTransform] {
        [UTF16RunsTransform(minLength: options.minStringLength), DecodedValuesTransform(maxDepth: options.maxDecodeDepth),
         AppStringsTransform()]
    }

    /// - Parameter hashes: shared by the workers of one scan (see `BufferScanner`).
    init(ruleSet: RuleSet, options: ScanOptions, hashes: SecretHashMemo? = nil, mode: MatchMode = .scan) {
        scanner = BufferScanner(ruleSet: ruleSet, options: options, hashes: hashes, mode: mode)
        self.options = options
        transforms = BufferPipeline.standardTransforms(options)
    }

    var rules: [Rule] { scanner.rules }

    /// The keyword hits of the last buffer's own bytes (for a `HitReference`).
    var hits: [UInt64] = []

    /// After `scan(part:)` with `resumable`: where the next read must start (see
    /// `BufferScanner.scan`); the transforms' spans after it are left to that read too.
    private(set) var resumeAt: Int?

    /// After `scan(part:)`: what a transform could not do with the buffer (decoding stopped
    /// at its budget), for error entries; the buffer itself was scanned.
    private(set) var transformProblems: [String] = []

    /// What sniffing and layout decided for a whole buffer.
    struct Summary {
        var binary: Bool
        /// A malformed object file's problems, and the transforms' (`transformProblems`), for
        /// error entries (its bytes were still scanned).
        var layoutProblems: [String]
    }

    /// A buffer held whole in memory that is no input (a `rules check` example): sniffed and
    /// laid out as the front lays out bytes held whole (`InputFront.layout`), never opened as
    /// an archive. Inputs go through `InputFront`.
    @discardableResult
    func scan(whole bytes: UnsafeRawBufferPointer, context: InputPlace = InputPlace(), reference: HitReference? = nil,
              hashSecrets: Bool = true, onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) -> Summary {
        let (layout, problems) = InputFront.layout(of: bytes)
        if bytes.count > 0 {
            scan(part: bytes, layout: layout, context: context, reference: reference, hashSecrets: hashSecrets,
                 onFinding: onFinding, onFailure: onFailure)
        } else {
            hits = []
        }
        return Summary(binary: layout != nil, layoutProblems: problems + (bytes.count > 0 ? transformProblems : []))
    }

    /// One read of an input: a whole buffer, or a chunk of a larger one.
    /// - Parameters:
    ///   - layout: nil for text; the binary layout of the whole input otherwise.
    ///   - baseOffset: the input offset of `bytes[0]`, for binary places.
    ///   - accept, linesBefore, columnsBefore, resumable, reference, hashSecrets: as for
    ///     `BufferScanner.scan`. Findings of derived buffers are always hashed (their value
    ///     is in the derived bytes, gone after the call).
    func scan(part bytes: UnsafeRawBufferPointer, layout: BinaryLayout?, baseOffset: Int = 0, context: InputPlace = InputPlace(),
              accept: Range<Int>? = nil, linesBefore: Int = 0, columnsBefore: Int = 0, resumable: Range<Int>? = nil,
              reference: HitReference? = nil, hashSecrets: Bool = true,
              onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) {
        let binary = layout != nil
        let layout = layout.map(vetPlaces)
        // The buffer's own findings (rule and span), so a derived buffer's finding of the same
        // value by the same rule inside the same span is not reported twice (a token sitting
        // raw in a percent-encoded URL is found in the URL and in its decoded text).
        raw.removeAll(keepingCapacity: true)
        transformProblems = []
        func ownFinding(_ f: BufferFinding) {
            raw.append((f.ruleIndex, f.range))
            var f = f
            if let layout { f.binary = layout.place(baseOffset + f.range.lowerBound) }
            onFinding(f)
        }
        // Rules from the scanned tree run last on these bytes, with every span a trusted rule
        // matched here or in text decoded from here hidden (see `Matcher.RulePass`): a tree's
        // rule must not read a token through its base64 either.
        let repositoryRules = scanner.matcher.ruleSet.hasRepositoryRules
        scanner.scan(bytes, isBinary: binary, context: context, accept: accept, linesBefore: linesBefore, columnsBefore: columnsBefore,
                     reference: reference, resumable: resumable, hashSecrets: hashSecrets,
                     repositoryRules: repositoryRules ? .deferred : .inline, onFinding: ownFinding, onFailure: onFailure)
        var hidden = repositoryRules ? scanner.trustedSpans : []
        hits = scanner.hits
        resumeAt = scanner.resumeAt
        // By start, so a derived finding looks only at the raw ones inside its span: looking
        // at all of them made a line of encoded keys quadratic (each decoded finding read every
        // raw one).
        raw.sort { $0.range.lowerBound < $1.range.lowerBound }
        // The line of the last derived finding and whether it holds an inline marker, kept while
        // findings stay on it (`LineCache`): found again for each, a long line was read whole
        // at every finding on it.
        var lines = LineCache()
        var lineAllowed = false
        let accepted = accept ?? 0..<bytes.count
        let own = accepted.lowerBound..<max(accepted.lowerBound, resumeAt ?? accepted.upperBound)
        var sourceIndexed = false
        derivedSeen.removeAll(keepingCapacity: true)
        for transform in transforms where transform.applies(toBinary: binary) {
            transform.derive(from: bytes, baseOffset: baseOffset, own: own, layout: layout) { derived in
                scanner.scan(derived.bytes, isBinary: !derived.isText, context: context, onFinding: { f in
                    guard let span = derived.sourceSpan(f.range) else { return }
                    let value = UnsafeRawBufferPointer(rebasing: derived.bytes[f.range])
                    if rawFinding(rule: f.ruleIndex, inside: span, where: {
                        BufferPipeline.sameValue(value, raw: UnsafeRawBufferPointer(rebasing: bytes[$0]))
                    }) { return }
                    // Two derived buffers of one span (two levels of one decoded value) may hold it too.
                    guard derivedSeen.insert(DerivedKey(rule: f.ruleIndex, span: span, secretHash: f.secretHash)).inserted else { return }
                    var out = f
                    out.range = span
                    if let step = derived.step { out.steps.insert(step, at: 0) }
                    out.steps.insert(contentsOf: derived.steps, at: derived.step == nil ? 0 : 1)
                    // Inline markers are read on the original line (a derived buffer has
                    // none of the source's comments).
                    if !binary, out.suppression == nil, !options.ignoreInlineAllow {
                        let (line, isNew) = lines.line(containing: span.lowerBound, in: bytes)
                        if isNew { lineAllowed = InlineAllow.present(in: UnsafeRawBufferPointer(rebasing: bytes[line])) }
                        if lineAllowed { out.suppression = .inline }
                    }
                    if let layout {
                        out.binary = layout.place(baseOffset + span.lowerBound)
                        out.line = nil; out.column = nil; out.endLine = nil; out.endColumn = nil
                    } else {
                        // Positions of the encoded text in the source, as the contract asks.
                        if !sourceIndexed { sourceLines.reset(); sourceIndexed = true }
                        let start = sourceLines.locate(span.lowerBound, in: bytes, linesBefore: linesBefore, columnsBefore: columnsBefore)
                        let end = sourceLines.locate(span.upperBound, in: bytes, linesBefore: linesBefore, columnsBefore: columnsBefore)
                        out.line = start.line; out.column = start.column; out.endLine = end.line; out.endColumn = end.column
                    }
                    onFinding(out)
                }, onFailure: onFailure)
                if repositoryRules {
                    for span in scanner.trustedSpans { if let source = derived.sourceSpan(span) { hidden.append(source) } }
                }
            }
            if let problem = transform.problem { transformProblems.append(problem) }
        }
        if repositoryRules {
            scanner.scanRepositoryRules(bytes, isBinary: binary, hidden: hidden, context: context, accept: own,
                                        linesBefore: linesBefore, columnsBefore: columnsBefore, hashSecrets: hashSecrets,
                                        onFinding: ownFinding, onFailure: onFailure)
        }
    }

    /// Place names an app format took from the file (a plist's key path) are data, and a
    /// plist may use a key as a dict key: every name a rule matches (or that a rule could not
    /// be evaluated on) is withheld, and the strings there are placed by format and offset
    /// alone. Run before the buffer's own scan, which then sets the scanner's state.
    private func vetPlaces(_ layout: BinaryLayout) -> BinaryLayout {
        guard var document = layout.document, document.placesComeFromData, !document.places.isEmpty else { return layout }
        var text: [UInt8] = []
        var starts: [Int] = []
        for place in document.places {
            starts.append(text.count)
            text += place.utf8
            text.append(UInt8(ascii: "\n"))
        }
        var hidden: [Int] = []
        var failed = false
        text.withUnsafeBytes { buffer in
            scanner.scan(buffer, isBinary: false, context: InputPlace(), hashSecrets: false, onFinding: { f in
                // Every place whose line the match touches.
                var lo = 0, hi = starts.count
                while lo < hi { let mid = (lo + hi) / 2; if starts[mid] <= f.range.lowerBound { lo = mid + 1 } else { hi = mid } }
                var i = max(lo - 1, 0)
                while i < starts.count && starts[i] < max(f.range.upperBound, f.range.lowerBound + 1) { hidden.append(i); i += 1 }
            }, onFailure: { _ in failed = true })
        }
        if failed { hidden = Array(0..<document.places.count) }
        guard !hidden.isEmpty else { return layout }
        document.withhold(places: hidden)
        var vetted = layout
        vetted.document = document
        return vetted
    }

    /// Names (paths, archive members) vetted for keys before they become places.
    lazy var names = NameVetting(ruleSet: scanner.matcher.ruleSet)

    /// What archive members are read into, kept between archives (see `ArchiveMemberBuffer`).
    lazy var memberBuffer = ArchiveMemberBuffer()

    private var raw: [(rule: Int, range: Range<Int>)] = []

    /// Whether a raw finding of `rule` lies inside `span` and passes `test` (`raw` sorted by start).
    private func rawFinding(rule: Int, inside span: Range<Int>, where test: (Range<Int>) -> Bool) -> Bool {
        var lo = 0, hi = raw.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if raw[mid].range.lowerBound < span.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        while lo < raw.count && raw[lo].range.lowerBound < span.upperBound {
            let r = raw[lo]
            if r.rule == rule && r.range.upperBound <= span.upperBound && test(r.range) { return true }
            lo += 1
        }
        return false
    }
    private struct DerivedKey: Hashable { var rule: Int; var span: Range<Int>; var secretHash: String }

    /// Whether a derived finding's value is a raw finding's value: the same bytes, or the raw
    /// bytes with their `%XX` escapes decoded (a SAS token's `sig=…%3D` is found raw in its
    /// URL and as `…=` in the URL's percent-decoded text: one secret, one finding).
    static func sameValue(_ value: UnsafeRawBufferPointer, raw: UnsafeRawBufferPointer) -> Bool {
        value.elementsEqual(raw) || (raw.contains(UInt8(ascii: "%")) && value.elementsEqual(percentDecoded(raw)))
    }
    private var derivedSeen = Set<DerivedKey>()
}
