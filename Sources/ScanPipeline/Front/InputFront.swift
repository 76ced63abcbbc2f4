import Archives
import FileInputs
import MatchEngine
import ScanCore

/// The one front every input goes through: a producer (the folder walk, standard input,
/// history, staged files, an archive's members) hands it the input's bytes (`InputBytes`)
/// and where it is (its path, for rules and allowlists); the front
///
///   sniffs them (text or binary, `ChunkReader.looksBinary`) -> opens an archive
///   (`ArchiveOpening`, the one rule; members come back through this front) or lays out a
///   binary (`BinaryLayout`: Mach-O, ELF, app formats) -> chunks them (a file in
///   `ChunkReader`'s chunks, a streamed blob in `StreamedBlobScanner`'s, memory whole)
///   -> the `BufferPipeline`, in one call (`match`).
///
/// What comes out goes to the input's `Sink`, in the input's terms (byte ranges in the input,
/// or in a member with its member steps first); the producer adds the provenance. One per
/// pipeline, so one per worker thread; not thread-safe.
final class InputFront {
    let pipeline: BufferPipeline
    var options: ScanOptions { pipeline.options }

    init(pipeline: BufferPipeline) {
        self.pipeline = pipeline
    }

    /// Test seam: runs once per binary file after its first chunk was read and before its
    /// object map is made, so a test can swap the file's name for a FIFO right there.
    var beforeLayout: (() -> Void)?

    /// The chunks files are read in (allocated at the first file: 8 MiB by default).
    lazy var chunkReader = ChunkReader(chunkSize: options.chunkSize, overlap: min(64 << 10, options.chunkSize / 4))
    /// The chunks a blob too large to hold is streamed in (allocated at the first one).
    lazy var streamChunks = StreamedBlobScanner(chunkSize: options.chunkSize)

    /// Where a rule failure happened.
    enum FailurePlace: Equatable {
        /// In the input's own bytes.
        case input
        /// In an archive the input is: inside the member chain `members`, or (empty chain) in
        /// the archive's raw bytes outside its members.
        case archive(members: [[UInt8]])
    }

    /// What the front reports for one input, as it finds it.
    struct Sink {
        /// A finding, its range in the input's bytes (or its member's, member steps first),
        /// lines counted from the input's first line.
        var onFinding: (BufferFinding) -> Void
        var onFailure: (RuleFailure, FailurePlace) -> Void
        /// An error entry at a member chain (empty: the input itself): a layout's, a
        /// transform's or an archive's problem; the bytes concerned were still scanned
        /// where they could be.
        var onProblem: (_ members: [[UInt8]], _ message: String) -> Void
        /// Bytes of the input's own read and matched (a chunk's own bytes), for progress.
        var onRead: (Int) -> Void = { _ in }
    }

    /// What the front decided and read, besides what went to the sink.
    struct Outcome {
        /// Whether the input's own bytes looked binary (an archive from its first byte: true).
        var binary = false
        /// The archive the input was opened as, if any.
        var opened: ArchiveOpening?
        /// Bytes of an archive's members and of its raw bytes outside them scanned; for a
        /// member held whole, its bytes.
        var archiveBytes = 0
        /// False when the source ended inside the input (git's output ended inside the blob):
        /// the caller drops what was found and reports the input unread.
        var complete = true
        /// Why a file could not be read (or read to its end): an error entry.
        var readError: String?
    }

    /// Scans one input.
    /// - Parameters:
    ///   - path: the input's display path (a member: `outer!member`), for path conditions
    ///     and allowlists; nil for a git blob scanned before its paths are known.
    ///   - reference, hashSecrets: for bytes held whole (see `BufferScanner.scan`).
    func scan(_ input: InputBytes, path: String?, reference: HitReference? = nil, hashSecrets: Bool = true, sink: Sink) -> Outcome {
        switch input {
        case .file(let entry):
            return scanFile(entry, path: path ?? entry.displayPath, sink: sink)
        case .memory(let bytes):
            return scanMemory(bytes, path: path, reference: reference, hashSecrets: hashSecrets, sink: sink)
        case .gitStream(let stream, let size):
            return streamChunks.scan(stream, size: size, front: self, path: path, sink: sink)
        case .member(let member, let buffer):
            return scanMember(member, buffer: buffer, path: path, sink: sink)
        }
    }

    /// Bytes held whole: an archive (head and tail at hand) is its members, a self-extractor
    /// its members and its bytes; anything else is sniffed, laid out and matched whole.
    private func scanMemory(_ bytes: UnsafeRawBufferPointer, path: String?, reference: HitReference?, hashSecrets: Bool,
                            sink: Sink) -> Outcome {
        var out = Outcome()
        if options.maxArchiveDepth > 0,
           let opening = ArchiveOpening.of(head: bytes, tail: UnsafeRawBufferPointer(rebasing: bytes.suffix(ArchiveKind.tailLength)),
                                           totalSize: bytes.count) {
            out.opened = opening
            out.archiveBytes = openArchive(.buffer(bytes), as: opening, path: path, sink: sink)
            if opening == .members { out.binary = true; return out }
        }
        out.binary = scanHeld(bytes, path: path, reference: reference, hashSecrets: hashSecrets, sink: sink)
        return out
    }

    /// A member: an archive by its first bytes (its end is not at hand) is opened by the
    /// caller, the archive being read, which holds the nesting depth and budget (`opened`
    /// set, nothing read); any other is read whole, up to `inMemoryLimit`, and scanned as
    /// bytes held whole.
    private func scanMember(_ member: ArchiveMember, buffer: ArchiveMemberBuffer, path: String?, sink: Sink) -> Outcome {
        var out = Outcome()
        let head = member.peek(ArchiveKind.headLength)
        if let opening = head.withUnsafeBytes({ ArchiveOpening.of(head: $0, tail: nil, totalSize: 0) }) {
            out.opened = opening
            return out
        }
        let cap = options.inMemoryLimit
        let (count, whole) = buffer.read(member, limit: cap)
        if !whole {
            sink.onProblem([], "member is over the \(cap)-byte limit of a member read whole; only its first \(cap) bytes are scanned")
        }
        out.archiveBytes = count
        out.binary = scanHeld(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count]), path: path, reference: nil, hashSecrets: true, sink: sink)
        return out
    }

    /// Opens the archive `source` holds: every member back through this front, then the
    /// source's raw bytes outside them (`ArchiveMemberScan`); the bytes scanned.
    func openArchive(_ source: ArchiveSource, as opening: ArchiveOpening, path: String?, sink: Sink) -> Int {
        let archives = ArchiveMemberScan(front: self)
        return archives.scan(source, opening: opening, contextPath: path, onFinding: sink.onFinding,
                             onFailure: { failure, members in sink.onFailure(failure, .archive(members: members)) },
                             onProblem: sink.onProblem).bytes
    }

    /// Text or binary, and for binary bytes the object map (`BinaryLayout.raw` when they are
    /// no Mach-O, ELF or app format): the sniff and layout stages for bytes held whole.
    static func layout(of bytes: UnsafeRawBufferPointer) -> (layout: BinaryLayout?, problems: [String]) {
        guard ChunkReader.looksBinary(bytes) else { return (nil, []) }
        return BinaryLayout.load(bytes: bytes)
    }

    /// Bytes held whole that are no archive: sniffed, laid out and matched in one buffer.
    /// Returns whether they looked binary.
    func scanHeld(_ bytes: UnsafeRawBufferPointer, path: String?, reference: HitReference?, hashSecrets: Bool, sink: Sink) -> Bool {
        let (layout, problems) = InputFront.layout(of: bytes)
        if bytes.count > 0 {
            match(bytes, layout: layout, context: InputPlace(path: path), reference: reference, hashSecrets: hashSecrets,
                  onFinding: sink.onFinding, onFailure: { sink.onFailure($0, .input) })
        } else {
            pipeline.hits = []
        }
        for problem in problems + (bytes.count > 0 ? pipeline.transformProblems : []) { sink.onProblem([], problem) }
        return layout != nil
    }

    /// The front's one call into the buffer pipeline (the matcher, the transforms, the
    /// filters): every input's bytes, a chunk, a whole buffer or an archive's raw bytes,
    /// go through here.
    func match(_ bytes: UnsafeRawBufferPointer, layout: BinaryLayout?, baseOffset: Int = 0, context: InputPlace,
               accept: Range<Int>? = nil, linesBefore: Int = 0, columnsBefore: Int = 0, resumable: Range<Int>? = nil,
               reference: HitReference? = nil, hashSecrets: Bool = true,
               onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) {
        pipeline.scan(part: bytes, layout: layout, baseOffset: baseOffset, context: context, accept: accept, linesBefore: linesBefore,
                      columnsBefore: columnsBefore, resumable: resumable, reference: reference, hashSecrets: hashSecrets,
                      onFinding: onFinding, onFailure: onFailure)
    }

    /// The last `match`'s transform problems not in `reported` yet (a chunked input meets
    /// the same one in several chunks: one error entry), added there and to the sink.
    func reportTransformProblems(_ reported: inout [String], _ sink: Sink) {
        for problem in pipeline.transformProblems where !reported.contains(problem) {
            reported.append(problem)
            sink.onProblem([], problem)
        }
    }
}
