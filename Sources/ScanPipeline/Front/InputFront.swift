import Archives
import FileInputs
import MatchEngine
import ScanCore

/// The one front every input goes through: a producer (the folder walk, standard input,
/// history, staged files, an archive's members) hands it the input's bytes (`InputBytes`)
/// and where it is (its path, for rules and allowlists); the front
///
///   sniffs them (text or binary, `ChunkReader.looksBinary`) -> opens a container (the
///   first of its `ContainerStages` that claims the input: an archive, self-extractors
///   included; members come back through this front, `scanMember`) or lays out a binary
///   (`BinaryLayout`: Mach-O, ELF, app formats) -> chunks them (a file in
///   `ChunkReader`'s chunks, a streamed blob in `StreamedBlobScanner`'s, memory whole)
///   -> the `BufferPipeline`, in one call (`match`).
///
/// What comes out goes to the input's `Sink`, in the input's terms (byte ranges in the input,
/// or in a member with its member steps first); the producer adds the provenance. One per
/// pipeline, so one per worker thread; not thread-safe.
final class InputFront {
    let pipeline: BufferPipeline
    var options: ScanOptions { pipeline.options }
    /// The stages asked, in order, whether an input is a container (archives).
    let containers: ContainerStages
    /// Levels of containers around the input being scanned (0: a top-level input); a
    /// container opened now is one level deeper.
    private(set) var containerDepth = 0

    init(pipeline: BufferPipeline, containers: ContainerStages = .standard) {
        self.pipeline = pipeline
        self.containers = containers
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

        /// The member chain (empty for the input's own bytes).
        var members: [[UInt8]] {
            switch self {
            case .input: return []
            case .archive(let members): return members
            }
        }
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
        /// The container stage that claimed the input and how it opened it, if one did; for a
        /// member of an archive being read, only claimed (`scanMember` opens it, or the reader
        /// of the archive it is in).
        var claim: ContainerStages.Claim?
        /// How the claiming stage opened the input.
        var opened: ContainerOpening? { claim?.opening }
        /// The stage that claimed it.
        var openedBy: (any ContainerStage)? { claim?.stage }
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
            return scanArchiveMember(member, buffer: buffer, path: path, sink: sink)
        }
    }

    /// Bytes held whole: a container (head and tail at hand) is its members, a self-extractor
    /// its members and its bytes; anything else is sniffed, laid out and matched whole.
    private func scanMemory(_ bytes: UnsafeRawBufferPointer, path: String?, reference: HitReference?, hashSecrets: Bool,
                            sink: Sink) -> Outcome {
        var out = Outcome()
        if options.maxArchiveDepth > 0,
           let claim = containers.claim(head: bytes, tail: UnsafeRawBufferPointer(rebasing: bytes.suffix(ArchiveKind.tailLength)),
                                        totalSize: bytes.count) {
            out.claim = claim
            out.archiveBytes = open(claim, .buffer(bytes), path: path, sink: sink)
            if claim.opening == .members { out.binary = true; return out }
        }
        out.binary = scanHeld(bytes, path: path, reference: reference, hashSecrets: hashSecrets, sink: sink)
        return out
    }

    /// An archive's member: a container by its first bytes (its end is not at hand) is left
    /// to the caller (`opened` set, nothing read): `scanMember` opens it, or the reader of
    /// the archive it is in nests it under its budget; any other is read whole, up to
    /// `inMemoryLimit`, and scanned as bytes held whole.
    private func scanArchiveMember(_ member: ArchiveMember, buffer: ArchiveMemberBuffer, path: String?, sink: Sink) -> Outcome {
        var out = Outcome()
        let head = member.peek(ArchiveKind.headLength)
        if let claim = head.withUnsafeBytes({ containers.claim(head: $0, tail: nil, totalSize: 0) }) {
            out.claim = claim
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

    /// Opens the container `source` holds, as `claim`'s stage claimed it, one level below the
    /// input being scanned: its members come back through `scanMember`; the bytes scanned.
    func open(_ claim: ContainerStages.Claim, _ source: ArchiveSource, path: String?, sink: Sink) -> Int {
        let outer = containerDepth
        containerDepth += 1
        defer { containerDepth = outer }
        return claim.stage.open(ContainerInput(source: source, opening: claim.opening, path: path, depth: containerDepth),
                                front: self, sink: sink)
    }

    /// A container's member handed back to the front: scanned as any input (sniffed, opened
    /// when a stage claims it, laid out, matched) at `path!names`, what it finds under one
    /// `archiveMember` provenance step per name (outermost first), its rule failures and
    /// problems at that member chain.
    /// - Parameters:
    ///   - names: the member chain from the container the caller opened (vetted names).
    ///   - path: the container's path (nil for a git blob's, see `scan`).
    ///   - depth: the level of the container the member is in (`ContainerInput.depth`).
    ///   - reader: the stage reading the container: an archive member it claims itself is
    ///     left to it (`Outcome.opened` set), since it nests under that container's budget;
    ///     one another stage claims is opened here.
    func scanMember(_ bytes: InputBytes, names: [[UInt8]], path: String?, depth: Int, reader: (any ContainerStage)?,
                    sink: Sink) -> Outcome {
        let steps = names.map { ProvenanceStep.archiveMember(path: $0) }
        let memberSink = Sink(onFinding: { f in
            var f = f
            f.steps = steps + f.steps
            sink.onFinding(f)
        }, onFailure: { failure, place in sink.onFailure(failure, .archive(members: names + place.members)) },
           onProblem: { members, message in sink.onProblem(names + members, message) })
        let memberPath = path.map { ArchiveMemberScan.path($0, names) }
        let outer = containerDepth
        containerDepth = depth
        defer { containerDepth = outer }
        var out = scan(bytes, path: memberPath, sink: memberSink)
        if let claim = out.claim, claim.stage !== reader, case .member(let member, _) = bytes {
            out.archiveBytes = open(claim, .member(member), path: memberPath, sink: memberSink)
        }
        return out
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
