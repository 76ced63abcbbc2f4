import Foundation
import FileInputs
import ScanCore
import MatchEngine

/// A secret found in one buffer, already turned into a position and a hash: the bytes
/// stay behind in the buffer.
struct BufferFinding {
    var ruleIndex: Int
    /// The secret's span in the buffer.
    var range: Range<Int>
    /// Text buffers only (nil for binary buffers).
    var line: Int?
    var column: Int?
    var endLine: Int?
    var endColumn: Int?
    /// The secret hash; for a suppressed finding of a run that keeps none, an in-memory
    /// identity only (see `BufferScanner.identities`), never printed.
    var secretHash: String
    /// Set when an allowlist or an inline marker suppresses it: it is counted, not reported.
    var suppression: Suppression? = nil
    /// Where the secret's first byte lies in an object file's bytes (binary buffers only).
    var binary: BinaryPlace? = nil
    /// What transforms added to the provenance on the way to the bytes the rule matched
    /// (empty for the buffer's own bytes and for UTF-16 runs).
    var steps: [ProvenanceStep] = []
    /// Path and commit conditions still to be settled (`RuleSet.settle`): set only for a
    /// buffer scanned without its place (a history blob, settled per path and commit).
    var pending: DeferredChecks? = nil
    /// The rule's checksum on the secret (nil: none applies).
    var checksum: Bool? = nil
    /// The named-credential pass's confidence and provider label (`RuleMatch.confidence`,
    /// `RuleMatch.provider`); nil for a regex rule's match.
    var confidence: Confidence? = nil
    var provider: Int? = nil
    /// Checks of the value for baselines, computed only when a run uses one (see `ValueTags`).
    var tags = ValueTags()
}

/// What a baseline needs of a value besides its secret hash, computed while the bytes are at
/// hand and only when asked: its tag under the baseline's key (v2 baselines, and the one
/// `--write-baseline` writes) and release 0.2's secret hash (to match a 0.2 baseline). Never
/// printed.
struct ValueTags: Sendable, Hashable {
    var baseline: UInt64?
    var legacy: UInt64?
}

/// The matching stage of `BufferPipeline`, for one buffer of any origin (a file chunk, a
/// git blob, a staged file, a derived buffer): masks binary content to printable runs,
/// runs the matcher on the rules `RuleFilter` lets run at the buffer's place, settles what
/// the matcher left to the place (or hands it on with the finding), marks allowlisted and
/// inline-allowed findings as suppressed (inline markers on the original line), computes
/// line, column and secret hash. One per worker
/// thread; its buffers are reused. Inputs go through `BufferPipeline`, never here directly.
final class BufferScanner {
    let matcher: Matcher
    let options: ScanOptions
    private let hashes: SecretHashMemo
    private var maskBuffer: UnsafeMutableRawBufferPointer
    private var lineIndex = TextPosition.LineIndex()
    private let filter: RuleFilter

    /// - Parameter hashes: shared by the workers of one scan, so each distinct secret's
    ///   deliberately slow hash is computed once.
    /// - Parameter mode: `.scan`, or `.ruleExamples` for `rules check`'s examples.
    init(ruleSet: RuleSet, options: ScanOptions, hashes: SecretHashMemo? = nil, mode: MatchMode = .scan) {
        // The matcher knows bytes only; path and commit conditions are settled here, or by
        // history per path and commit (`BufferFinding.pending`).
        matcher = Matcher(ruleSet: ruleSet, mode: mode)
        filter = RuleFilter(ruleSet: ruleSet)
        self.options = options
        self.hashes = hashes ?? SecretHashMemo(options: options)
        maskBuffer = .allocate(byteCount: 64 << 10, alignment: 64)
    }

    deinit { maskBuffer.deallocate() }

    var rules: [Rule] { matcher.ruleSet.rules }

    /// The keyword hits of the last buffer scanned (for a `HitReference`).
    var hits: [UInt64] { matcher.hits }

    /// After a scan with `resumable`: where the next read must start reporting matches (the
    /// start of a match that may run on past this buffer), nil to go on as usual.
    private(set) var resumeAt: Int?

    /// The secret hash of bytes a finding spans (for findings the caller set aside).
    func secretHash(_ secret: UnsafeRawBufferPointer) -> String { hashes.hash(secret) }

    /// The secret hashes of several findings' bytes at once (new ones computed together).
    func secretHashes(_ secrets: [UnsafeRawBufferPointer]) -> [String] { hashes.hashes(secrets) }

    /// Whether findings need `ValueTags` (a baseline is read or written in this run).
    var computesTags: Bool { hashes.computesTags }

    /// The value tags of several findings' bytes (see `ValueTags`).
    func valueTags(_ secrets: [UnsafeRawBufferPointer]) -> [ValueTags] { hashes.tags(secrets) }

    /// What identifies each finding within this run: its secret hash (a keyed HMAC, cheap
    /// enough for every finding, suppressed ones included).
    func identities(_ secrets: [UnsafeRawBufferPointer]) -> [String] { hashes.hashes(secrets) }

    /// How the rules of the scanned tree are run on a buffer (`Matcher.RulePass`); only
    /// asked when the rule set has some.
    enum RepositoryRules {
        /// Both passes now: the repository's over this buffer with the trusted spans blanked.
        case inline
        /// The trusted pass only; the caller runs `scanRepositoryRules` once it knows every
        /// span to hide (the encoded text whose decoded value a trusted rule matched, too).
        case deferred
    }

    /// After a scan: the whole match of every trusted rule's pattern in the buffer (empty
    /// when the rule set has no repository rules).
    private(set) var trustedSpans: [Range<Int>] = []

    /// - Returns: the newlines in `buffer[accept]`, for the next chunk's `linesBefore` (0 for binary).
    @discardableResult
    func scan(_ input: UnsafeRawBufferPointer, isBinary: Bool, context: InputPlace, accept: Range<Int>? = nil,
              linesBefore: Int = 0, columnsBefore: Int = 0, countLines: Bool = false, reference: HitReference? = nil,
              resumable: Range<Int>? = nil,
              hashSecrets: Bool = true, repositoryRules: RepositoryRules = .inline,
              onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) -> Int {
        let buffer = isBinary ? masked(input) : input
        let twoPass = matcher.ruleSet.hasRepositoryRules
        trustedSpans.removeAll(keepingCapacity: true)
        var found: [BufferFinding] = []
        var matchStarts: [Int] = []
        resumeAt = nil
        match(buffer, original: buffer, isBinary: isBinary, context: context, pass: twoPass ? .trusted : .all, accept: accept, linesBefore: linesBefore,
              columnsBefore: columnsBefore, reference: reference, continues: resumable != nil,
              found: &found, matchStarts: &matchStarts, onFailure: onFailure)
        if twoPass { trustedSpans = matcher.trustedSpans }
        if let window = resumable {
            for cut in matcher.cutShort {
                if window.contains(cut.start) {
                    resumeAt = min(resumeAt ?? cut.start, cut.start)
                } else if cut.start < window.lowerBound {
                    onFailure(RuleFailure(ruleIndex: cut.ruleIndex, message: "a match longer than \(buffer.count - cut.start) bytes may cross a read boundary"))
                }
            }
            if let from = resumeAt {
                found = zip(found, matchStarts).filter { $0.1 < from }.map(\.0)
                matchStarts = matchStarts.filter { $0 < from }
            }
        }
        if twoPass && repositoryRules == .inline {
            repositoryPass(buffer, isBinary: isBinary, hidden: trustedSpans, context: context,
                           accept: resumeAt.map { (accept?.lowerBound ?? 0)..<$0 } ?? accept,
                           linesBefore: linesBefore, columnsBefore: columnsBefore, found: &found, onFailure: onFailure)
        }
        hand(found, from: buffer, hashSecrets: hashSecrets, onFinding: onFinding)
        if isBinary || !countLines { return 0 }
        return TextPosition.countNewlines(UnsafeRawBufferPointer(rebasing: buffer[accept ?? 0..<buffer.count]))
    }

    /// The repository pass of a buffer scanned with `repositoryRules: .deferred`: the rules of
    /// the scanned tree over `input` with `hidden` blanked (the trusted spans of that scan and
    /// whatever else the caller must keep from them).
    func scanRepositoryRules(_ input: UnsafeRawBufferPointer, isBinary: Bool, hidden: [Range<Int>], context: InputPlace,
                             accept: Range<Int>?, linesBefore: Int, columnsBefore: Int, hashSecrets: Bool = true,
                             onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) {
        let buffer = isBinary ? masked(input) : input
        var found: [BufferFinding] = []
        repositoryPass(buffer, isBinary: isBinary, hidden: hidden, context: context, accept: accept, linesBefore: linesBefore,
                       columnsBefore: columnsBefore, found: &found, onFailure: onFailure)
        hand(found, from: buffer, hashSecrets: hashSecrets, onFinding: onFinding)
    }

    /// Binary content as the matcher sees it: its printable runs, newlines elsewhere.
    private func masked(_ input: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if maskBuffer.count < input.count {
            maskBuffer.deallocate()
            // Half as much again at least: fresh pages fault in on first touch, and archive
            // members of growing sizes would otherwise each take a new buffer.
            maskBuffer = .allocate(byteCount: max(input.count, maskBuffer.count + maskBuffer.count / 2), alignment: 64)
        }
        PrintableRuns.mask(input, into: maskBuffer, minLength: options.minStringLength)
        return UnsafeRawBufferPointer(rebasing: maskBuffer[0..<input.count])
    }

    /// The repository's rules over a copy of `buffer` whose `hidden` bytes are NULs (newlines
    /// kept, so line numbers after a hidden PEM block stay right); a match that touches a
    /// hidden byte, or the byte either side, is dropped. Positions and inline markers come
    /// from `buffer` itself. With nothing hidden the buffer is matched as it is.
    private func repositoryPass(_ buffer: UnsafeRawBufferPointer, isBinary: Bool, hidden: [Range<Int>], context: InputPlace,
                                accept: Range<Int>?, linesBefore: Int, columnsBefore: Int,
                                found: inout [BufferFinding], onFailure: (RuleFailure) -> Void) {
        var starts: [Int] = []
        let spans = hidden.filter { !$0.isEmpty }
        guard !spans.isEmpty else {
            match(buffer, original: buffer, isBinary: isBinary, context: context, pass: .repository, accept: accept, linesBefore: linesBefore,
                  columnsBefore: columnsBefore, reference: nil, continues: false, found: &found, matchStarts: &starts, onFailure: onFailure)
            return
        }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count, alignment: 16)
        defer { copy.deallocate() }
        copy.copyMemory(from: buffer)
        var merged: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let widened = max(0, span.lowerBound - 1)..<min(buffer.count, span.upperBound + 1)
            if let last = merged.last, widened.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, widened.upperBound)
            } else {
                merged.append(widened)
            }
            for i in span.clamped(to: 0..<buffer.count) where copy[i] != 0x0A && copy[i] != 0x0D { copy[i] = 0 }
        }
        var mine: [BufferFinding] = []
        match(UnsafeRawBufferPointer(copy), original: buffer, isBinary: isBinary, context: context, pass: .repository, accept: accept,
              linesBefore: linesBefore, columnsBefore: columnsBefore, reference: nil, continues: false,
              found: &mine, matchStarts: &starts, onFailure: onFailure, touches: { whole in
            // Binary search for the first merged span ending after the match starts.
            var lo = 0, hi = merged.count
            while lo < hi { let mid = (lo + hi) / 2; if merged[mid].upperBound <= whole.lowerBound { lo = mid + 1 } else { hi = mid } }
            return lo < merged.count && merged[lo].lowerBound < max(whole.upperBound, whole.lowerBound + 1)
        })
        found += mine
    }

    /// One matcher pass over `buffer` (what the rules see), each match turned into a finding
    /// placed in `original` (the bytes as read: the same offsets).
    private func match(_ buffer: UnsafeRawBufferPointer, original: UnsafeRawBufferPointer, isBinary: Bool, context: InputPlace,
                       pass: Matcher.RulePass, accept: Range<Int>?, linesBefore: Int, columnsBefore: Int, reference: HitReference?, continues: Bool,
                       found: inout [BufferFinding], matchStarts: inout [Int], onFailure: (RuleFailure) -> Void,
                       touches: ((Range<Int>) -> Bool)? = nil) {
        lineIndex.reset()
        // A buffer scanned with its place settles path and commit conditions at once.
        let settlesNow = context.path != nil || context.commit != nil
        // The line last looked up and whether it holds an inline marker, kept while findings
        // stay on it (`LineCache`: a 200 KB line with 1,364 findings spent 77% of the scan
        // finding its bounds and marker again for each).
        var lines = LineCache()
        var lineAllowed = false
        func markedLine(containing offset: Int) -> (range: Range<Int>, allowed: Bool) {
            let (range, isNew) = lines.line(containing: offset, in: original)
            if isNew { lineAllowed = InlineAllow.present(in: UnsafeRawBufferPointer(rebasing: original[range])) }
            return (range, lineAllowed)
        }
        // A binary's mask is newlines outside its runs: the keyword pass skips them.
        matcher.scan(buffer, mask: filter.mask(for: context), pass: pass, sparseFiller: isBinary ? 0x0A : nil,
                     accept: accept, reference: isBinary ? nil : reference,
                     continues: continues, onMatch: { m in
            if let touches, touches(m.match) { return }
            var finding = BufferFinding(ruleIndex: m.ruleIndex, range: m.secret, secretHash: "", checksum: m.checksum)
            finding.confidence = m.confidence
            finding.provider = m.provider
            var allowlisted = m.allowlisted
            if let pending = m.pending {
                if settlesNow {
                    switch filter.settle(pending, ruleIndex: m.ruleIndex, place: context, onFailure: onFailure) {
                    case .drop: return
                    case .allowlisted: allowlisted = true
                    case .report: break
                    }
                } else {
                    finding.pending = pending
                }
            }
            if allowlisted {
                finding.suppression = .allowlist
            } else if !options.ignoreInlineAllow {
                // Inline allow markers on the secret's line or the match's first line.
                let secretLine = markedLine(containing: m.secret.lowerBound)
                if secretLine.allowed {
                    finding.suppression = .inline
                } else if !secretLine.range.contains(m.match.lowerBound), markedLine(containing: m.match.lowerBound).allowed {
                    finding.suppression = .inline
                }
            }
            if !isBinary {
                let start = lineIndex.locate(m.secret.lowerBound, in: original, linesBefore: linesBefore, columnsBefore: columnsBefore)
                let end = lineIndex.locate(m.secret.upperBound, in: original, linesBefore: linesBefore, columnsBefore: columnsBefore)
                finding.line = start.line
                finding.column = start.column
                finding.endLine = end.line
                finding.endColumn = end.column
            }
            found.append(finding)
            matchStarts.append(m.match.lowerBound)
        }, onFailure: onFailure)
    }

    /// Hashes the findings' secrets (the new ones together, side by side where the CPU
    /// allows) and hands them on.
    private func hand(_ found: [BufferFinding], from buffer: UnsafeRawBufferPointer, hashSecrets: Bool, onFinding: (BufferFinding) -> Void) {
        var found = found
        if hashSecrets && !found.isEmpty {
            let values = found.map { UnsafeRawBufferPointer(rebasing: buffer[$0.range]) }
            let computed = hashes.hashes(values)
            for i in found.indices { found[i].secretHash = computed[i] }
            if hashes.computesTags {
                let tags = hashes.tags(values)
                for i in found.indices { found[i].tags = tags[i] }
            }
        }
        for finding in found { onFinding(finding) }
    }

}

/// Secret hashes (and, when a baseline is in use, value tags) already computed, keyed by the
/// secret's bytes (in memory only, like the buffers they come from). Thread-safe.
final class SecretHashMemo: @unchecked Sendable {
    private let lock = NSLock()
    private let hasher: SecretHasher
    private let baselineKey: [UInt8]?
    private let legacyKey: String?
    private var known: [[UInt8]: String] = [:]
    private var knownTags: [[UInt8]: ValueTags] = [:]

    init(options: ScanOptions) {
        hasher = SecretHasher(keying: options.secretKeying)
        baselineKey = options.baselineKey
        legacyKey = options.legacyBaseline.isEmpty ? nil : options.hashKey
    }

    /// Whether findings need `ValueTags` (a baseline is read or written).
    var computesTags: Bool { baselineKey != nil || legacyKey != nil }

    func hash(_ secret: UnsafeRawBufferPointer) -> String { hashes([secret])[0] }

    /// The hashes of several secrets, in order.
    func hashes(_ secrets: [UnsafeRawBufferPointer]) -> [String] {
        var out = [String]()
        out.reserveCapacity(secrets.count)
        lock.lock()
        defer { lock.unlock() }
        for secret in secrets {
            let bytes = Array(secret)
            if let h = known[bytes] { out.append(h); continue }
            let h = hasher.secretHash(secret)
            known[bytes] = h
            out.append(h)
        }
        return out
    }

    /// The value tags of several secrets, in order; the new distinct ones are computed
    /// together (PBKDF2 side by side where the CPU allows), outside the lock.
    func tags(_ secrets: [UnsafeRawBufferPointer]) -> [ValueTags] {
        guard computesTags else { return secrets.map { _ in ValueTags() } }
        var out = [ValueTags?](repeating: nil, count: secrets.count)
        var missing: [[UInt8]: [Int]] = [:]
        var order: [[UInt8]] = []
        lock.lock()
        for (i, secret) in secrets.enumerated() {
            let bytes = Array(secret)
            if let t = knownTags[bytes] { out[i] = t; continue }
            if missing[bytes] == nil { order.append(bytes) }
            missing[bytes, default: []].append(i)
        }
        lock.unlock()
        if !order.isEmpty {
            let values = order.map { secrets[missing[$0]![0]] }
            let baseline = baselineKey.map { SecretHasher.baselineTags(values, key: $0) }
            let legacy = legacyKey.map { SecretHasher.legacySecretHashes(values, key: $0) }
            lock.lock()
            for (j, bytes) in order.enumerated() {
                let t = ValueTags(baseline: baseline?[j], legacy: legacy?[j])
                knownTags[bytes] = t
                for i in missing[bytes]! { out[i] = t }
            }
            lock.unlock()
        }
        return out.map { $0! }
    }
}
