import Archives

/// How a container stage opens an input it claims.
enum ContainerOpening: Equatable {
    /// The input is the container from its first byte (an archive by its magic number): its
    /// members are the input, in place of the input's own scan; what the container holds
    /// outside its members is the stage's to read.
    case members
    /// A container found only by the input's end (a zip's end record behind other bytes: a
    /// self-extracting installer, a piece of a split zip): its members, and the input's own
    /// bytes too, scanned by the front as any input's (the bytes in front are the input's own
    /// content, with their own layout).
    case membersAndBytes
}

/// What a container stage is asked to open.
struct ContainerInput {
    /// The container's bytes as the front holds them when it decides: held whole
    /// (`.buffer`), a regular file's descriptor (`.fileDescriptor`, read with pread, never by
    /// name), a member of an archive being read (`.member`), or a stream read front to back
    /// (`.stream`: a git blob too large to hold, its first chunk served again first).
    let source: ArchiveSource
    let opening: ContainerOpening
    /// The input's display path (a member's: `outer!member`), for path conditions and
    /// allowlists of what the members hold; nil for a git blob scanned before its paths are
    /// known (settled later, as the blob's own findings are).
    let path: String?
    /// Levels of containers this one is inside of, itself included: 1 for a top-level input.
    /// A stage stops at `ScanOptions.maxArchiveDepth` with an error entry (fail closed).
    let depth: Int
}

/// A stage of the front for inputs whose content is other inputs: an archive's members.
/// Unlike a `BufferTransform` (which derives buffers from a buffer the matcher has already
/// seen), a container stage replaces the input's own scan (or, for a self-extractor, adds to
/// it) and reads the input through the source the front holds (a descriptor or a stream,
/// not one buffer), bounded by its own byte budget, never extracting anything to disk.
///
/// The front (`InputFront`) asks the stages of its `ContainerStages`, in order, whether one
/// claims an input (`claim`), for every input it is handed (files, blobs held whole or
/// streamed, staged files, standard input, members of containers), and the first that does
/// opens it (`open`). Each member goes back through the front (`InputFront.scanMember`) as
/// `InputBytes` with an `archiveMember` provenance step, so it is sniffed, laid out, opened
/// again when it is a container itself, and matched as any input.
///
/// To add one: a `final class` conforming to this in `ScanPipeline/Containers/`, and its entry
/// in `ContainerStages.standard` (the order is the order they are asked). `ArchiveStage` (zip,
/// tar, ar and compressed streams through libarchive) is the one there today.
protocol ContainerStage: AnyObject {
    /// What the stage is called in docs and tests.
    var name: String { get }

    /// Whether the stage opens an input, by content only, never by name: `head` is the
    /// input's first bytes (at least `ArchiveKind.headLength` of them when it is that long),
    /// `tail` its last `ArchiveKind.tailLength` bytes (all of it when shorter) when its end is
    /// at hand (bytes held whole, a binary regular file), nil otherwise (a stream, a member,
    /// a text file); nil: not this stage's.
    func claim(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int) -> ContainerOpening?

    /// Opens `input`: every member through `front.scanMember` (or the stage's own nested
    /// reading, under one budget), what it finds to `sink` (member steps first, member
    /// chains for problems and failures, `.archive(members:)`); what the container held
    /// and the stage could not read is an error entry there. Returns the bytes scanned.
    func open(_ input: ContainerInput, front: InputFront, sink: InputFront.Sink) -> Int

    /// For a stream whose end is not read yet (a git blob too large to hold): where in
    /// `window` (from index `from` on) a container that only its end will claim
    /// (`.membersAndBytes`) may start, so its members can be read from the same reads that
    /// scan the input's bytes; else where the next window's search must resume (a start
    /// cut by the window's end is looked for again). Stages without appended containers keep
    /// the default: none.
    func appendedStart(in window: UnsafeRawBufferPointer, from: Int) -> AppendedSearch

    /// The error entry when a stream's end claimed `.membersAndBytes` but no start of the
    /// container was found in it (its members unread, its bytes scanned).
    var appendedStartMissing: String { get }
}

/// What a search for an appended container's start found in one window.
enum AppendedSearch: Equatable {
    case found(Int)
    case notFound(resumeFrom: Int)
}

extension ContainerStage {
    func appendedStart(in window: UnsafeRawBufferPointer, from: Int) -> AppendedSearch {
        .notFound(resumeFrom: window.count)
    }

    var appendedStartMissing: String {
        "a container's end ends this blob, but its start was not found in the stream; its members are not read, its bytes are scanned"
    }
}
