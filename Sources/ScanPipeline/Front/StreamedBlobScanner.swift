import AppFormats
import Archives
import FileInputs
import GitHistory
import MatchEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scans a blob too large to hold whole (over the chunk size) as the folder scanner scans
/// a large file: in chunks of `chunkSize` bytes read straight from git's output, each
/// overlapping the next by `overlap` bytes so a secret across a boundary is seen whole by
/// one chunk, and matches starting in the overlap left to the next chunk. Memory stays at
/// one chunk however large the blob is, whatever `maxFileSize` a config asks for, except for
/// an app-format blob, which is held whole up to `holdLimit` for its parse (see there).
///
/// The front's reader for an `InputBytes.gitStream`. What it does with a large file, this
/// does with a large blob:
/// - an archive from its first byte is its members (streamed through libarchive);
/// - a zip appended to other bytes (a self-extracting installer) is its members and its own
///   bytes: the zip's members are read from its first local header on, from the same reads
///   that the raw chunks scan, and count once the blob's last bytes show the zip's end record
///   (the rule the folder scan applies to a file);
/// - a binary plist, DEX, Android binary XML or resource table, or Java class file gets its
///   strings parsed (`AppFormatLayout`) and scanned with their places.
final class StreamedBlobScanner {
    let chunkSize: Int
    let overlap: Int
    /// Bytes kept before a resume point, so lookbehinds see what precedes the match.
    let rereadContext: Int
    /// The most an app-format blob is held whole for its parse: 8 chunks (64 MiB at the
    /// default 8 MiB chunk). Every parser needs tables before strings (a plist's trailer is
    /// its last 32 bytes; a DEX's string ids, a pool's offsets, a class file's earlier pool
    /// entries come first), so the parse runs on the whole blob, as the folder scan runs it
    /// on the whole file (up to `--max-file-size`). Real ones are far below it (the largest
    /// `classes.dex` a 64K-method limit allows is about 12 MiB); a larger one is scanned raw
    /// and is an error entry, never a silent downgrade.
    var holdLimit: Int { 8 * chunkSize }
    private let storage: UnsafeMutableRawPointer

    init(chunkSize: Int) {
        self.chunkSize = chunkSize
        // As for files (FileScanner): 64 KiB, or a quarter of a small test chunk.
        overlap = min(64 << 10, chunkSize / 4)
        rereadContext = min(4096, chunkSize / 8)
        storage = .allocate(byteCount: chunkSize, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// Reads the rest of `stream` (a blob of `size` bytes) chunk by chunk into `front`'s
    /// pipeline, everything found to `sink` (positions are the blob's: byte offsets from its
    /// start, lines counted from its first line; secret hashes computed). `complete` false:
    /// git's output ended inside the blob, and what was found must be dropped.
    ///
    /// As for files (`InputFront.scanFile` with ChunkReader): a match that runs up to the end
    /// of a chunk with more blob after it (PCRE2 partial matching) and starts in the chunk's
    /// second half is tried again with the next chunk, which then starts `rereadContext`
    /// bytes before it, so every match up to half a chunk long is found wherever it lies; a
    /// longer one crossing a boundary is a rule failure (an error entry), never a silent miss.
    /// Columns of a line that crosses a boundary are carried into the next chunk.
    func scan(_ stream: CatFileReader.ObjectStream, size: Int, front: InputFront, path: String?,
              sink: InputFront.Sink) -> InputFront.Outcome {
        var out = InputFront.Outcome()
        let context = InputPlace(path: path)
        var reported: [String] = []
        var walk = Walk(scanner: self, size: size, read: { stream.read(into: $0, count: $1) })
        guard walk.readMore() else { out.complete = false; return out }
        if walk.filled == 0 { return out }
        let first = UnsafeRawBufferPointer(start: storage, count: walk.filled)
        let opensArchives = front.options.maxArchiveDepth > 0
        // An archive is opened as a whole blob's would be, streamed on from git under the
        // same limits (only its magic number counts: its end is not read yet); its members'
        // findings carry their member steps.
        if opensArchives, let claim = front.containers.claim(head: first, tail: nil, totalSize: 0) {
            var cut = false
            var served = 0
            let source = ArchiveSource.stream { buffer in
                if served < first.count {
                    let count = min(buffer.count, first.count - served)
                    buffer.baseAddress!.copyMemory(from: first.baseAddress! + served, byteCount: count)
                    served += count
                    return count
                }
                let count = min(buffer.count, stream.remaining)
                guard count > 0 else { return 0 }
                guard stream.read(into: buffer.baseAddress!, count: count) else { cut = true; return -1 }
                return count
            }
            out.claim = claim
            out.archiveBytes = front.open(claim, source, path: path, sink: sink)
            out.binary = true
            out.complete = !cut
            return out
        }
        let binary = ChunkReader.looksBinary(first)
        walk.binary = binary
        var held: UnsafeMutableRawBufferPointer?
        defer { held?.deallocate() }
        if binary {
            // A blob too large to hold has no object map (its load commands may lie anywhere):
            // binary bytes are placed as `raw`, at their offsets in the blob.
            walk.layout = .raw
            if let format = AppFormat.sniff(first) {
                if size <= holdLimit {
                    let whole = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
                    held = whole
                    whole.baseAddress!.copyMemory(from: storage, byteCount: walk.filled)
                    guard stream.remaining == 0 || stream.read(into: whole.baseAddress! + walk.filled, count: stream.remaining) else {
                        out.complete = false
                        return out
                    }
                    let (layout, problems) = AppFormatLayout.load(bytes: UnsafeRawBufferPointer(whole))
                    walk.layout = layout
                    for problem in problems { reported.append(problem); sink.onProblem([], problem) }
                    // The chunks are read from the held copy from here on.
                    var at = walk.filled
                    walk.read = { destination, count in
                        destination.copyMemory(from: whole.baseAddress! + at, byteCount: count)
                        at += count
                        return true
                    }
                } else {
                    let problem = "\(format.rawValue) of \(size) bytes is over the \(holdLimit) bytes a streamed blob's app-format parse may hold; its strings are not parsed, its raw bytes are scanned"
                    reported.append(problem)
                    sink.onProblem([], problem)
                }
            }
        }
        // A self-extractor: a container's start past the start of a binary blob (a zip's
        // first local header, `ContainerStage.appendedStart`), its members read through `fill`
        // from the bytes the chunks read (and scan) anyway, and kept aside until the blob's
        // end shows whether the container's end (the zip's end record) ends it.
        var appended: (sink: DeferredSink, stage: any ContainerStage)?
        var searchFrom = 0
        let lookForAppended = binary && held == nil && opensArchives
        while walk.scanChunk(front, context: context, sink: sink, reported: &reported) {
            guard lookForAppended, appended == nil else { continue }
            let (stage, search) = walk.appendedStart(front.containers, from: searchFrom)
            switch search {
            case .notFound(let resumeFrom):
                searchFrom = resumeFrom
            case .found(let start):
                guard let stage else { continue }
                let deferred = DeferredSink()
                appended = (deferred, stage)
                var served = start
                _ = front.open(ContainerStages.Claim(stage: stage, opening: .membersAndBytes), .stream({ buffer in
                    while served >= walk.chunkStart + walk.filled {
                        guard walk.scanChunk(front, context: context, sink: sink, reported: &reported) else {
                            return walk.failed ? -1 : 0
                        }
                    }
                    let from = served - walk.chunkStart
                    let count = min(buffer.count, walk.filled - from)
                    buffer.baseAddress!.copyMemory(from: self.storage + from, byteCount: count)
                    served += count
                    return count
                }), path: path, sink: deferred.sink)
            }
        }
        if walk.failed { out.complete = false; return out }
        out.binary = binary
        // The rule for a container behind other bytes (a zip's end record ending the input),
        // now that the end is here.
        let tailCount = min(walk.filled, ArchiveKind.tailLength)
        let tail = UnsafeRawBufferPointer(start: storage + walk.filled - tailCount, count: tailCount)
        if binary, held == nil, opensArchives,
           let claim = front.containers.claim(head: UnsafeRawBufferPointer(start: nil, count: 0), tail: tail, totalSize: size),
           claim.opening == .membersAndBytes {
            out.claim = claim
            if let appended, appended.stage === claim.stage {
                appended.sink.replay(to: sink)
            } else {
                sink.onProblem([], claim.stage.appendedStartMissing)
            }
        }
        return out
    }

    /// The chunk walk over one blob: `storage` holds blob bytes `chunkStart ..< chunkStart +
    /// filled`; each `scanChunk` first drops what the previous chunk answered for, then reads
    /// on and scans.
    struct Walk {
        unowned let scanner: StreamedBlobScanner
        let size: Int
        var read: (UnsafeMutableRawPointer, Int) -> Bool
        var binary = false
        var layout: BinaryLayout?
        private(set) var filled = 0       // bytes in storage, from storage[0]
        private(set) var chunkStart = 0   // blob offset of storage[0]
        private(set) var remaining: Int
        private(set) var failed = false
        private var acceptStart = 0       // where this chunk's own bytes start in storage
        private var linesBefore = 0
        private var columnsBefore = 0
        /// Where the next chunk starts in storage (set after a chunk that was not the last),
        /// and where its own bytes start.
        private var pendingMove: (end: Int, acceptStart: Int)?
        private var finished = false

        init(scanner: StreamedBlobScanner, size: Int, read: @escaping (UnsafeMutableRawPointer, Int) -> Bool) {
            self.scanner = scanner
            self.size = size
            self.read = read
            remaining = size
        }

        /// Fills storage up to a chunk (or the blob's end); false when the source failed.
        mutating func readMore() -> Bool {
            let wanted = min(scanner.chunkSize - filled, remaining)
            guard wanted > 0 else { return true }
            guard read(scanner.storage + filled, wanted) else { failed = true; return false }
            filled += wanted
            remaining -= wanted
            return true
        }

        /// Scans the next chunk; false when the blob is done (or the source failed).
        mutating func scanChunk(_ front: InputFront, context: InputPlace, sink: InputFront.Sink, reported: inout [String]) -> Bool {
            guard !finished, !failed else { return false }
            let storage = scanner.storage
            if let move = pendingMove {
                storage.copyMemory(from: storage + move.end, byteCount: filled - move.end)
                chunkStart += move.end
                filled -= move.end
                acceptStart = move.acceptStart
                pendingMove = nil
            }
            guard readMore() else { return false }
            if filled == 0 { finished = true; return false }
            let bytes = UnsafeRawBufferPointer(start: storage, count: filled)
            let last = remaining == 0
            let acceptEnd = last ? filled : filled - scanner.overlap
            let base = chunkStart
            let resumable = last ? nil : max(acceptStart, scanner.chunkSize / 2 + scanner.rereadContext)..<acceptEnd
            front.match(bytes, layout: layout, baseOffset: base, context: context, accept: acceptStart..<acceptEnd,
                        linesBefore: linesBefore, columnsBefore: columnsBefore, resumable: resumable, onFinding: { f in
                var f = f
                f.range = (f.range.lowerBound + base)..<(f.range.upperBound + base)
                sink.onFinding(f)
            }, onFailure: { sink.onFailure($0, .input) })
            front.reportTransformProblems(&reported, sink)
            if last { finished = true; return true }
            // Where the next chunk starts: the end of this one's own bytes, or the re-read
            // context before the resume point.
            var end = acceptEnd
            var nextAcceptStart = 0
            if let resume = front.pipeline.resumeAt, resume > acceptStart + scanner.rereadContext, resume < acceptEnd {
                end = resume - scanner.rereadContext
                nextAcceptStart = scanner.rereadContext
            }
            if !binary {
                let head = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
                linesBefore += TextPosition.countNewlines(head)
                columnsBefore = TextPosition.columns(before: end, in: bytes, carried: columnsBefore)
            }
            pendingMove = (end, nextAcceptStart)
            return true
        }

        /// Where a container appended to other bytes may start (`ContainerStage.appendedStart`)
        /// at or after blob offset `from` among the bytes in storage, and the stage whose it
        /// is; else the blob offset the next search resumes from. Not at offset 0: a
        /// container from the start was claimed before the walk.
        func appendedStart(_ containers: ContainerStages, from: Int) -> (stage: (any ContainerStage)?, search: AppendedSearch) {
            let window = UnsafeRawBufferPointer(start: scanner.storage, count: filled)
            let (stage, search) = containers.appendedStart(in: window, from: max(from - chunkStart, 0, 1 - chunkStart))
            switch search {
            case .found(let at): return (stage, .found(chunkStart + at))
            case .notFound(let resume): return (nil, .notFound(resumeFrom: chunkStart + resume))
            }
        }
    }
}
