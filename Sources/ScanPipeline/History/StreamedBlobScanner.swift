import FileInputs
import GitHistory
import MatchEngine

/// Scans a blob too large to hold whole (over the chunk size) as the folder scanner scans
/// a large file: in chunks of `chunkSize` bytes read straight from git's output, each
/// overlapping the next by `overlap` bytes so a secret across a boundary is seen whole by
/// one chunk, and matches starting in the overlap left to the next chunk. Memory stays at
/// one chunk however large the blob is, whatever `maxFileSize` a config asks for.
final class StreamedBlobScanner {
    let chunkSize: Int
    let overlap: Int
    /// Bytes kept before a resume point, so lookbehinds see what precedes the match.
    let rereadContext: Int
    private let storage: UnsafeMutableRawPointer

    init(chunkSize: Int) {
        self.chunkSize = chunkSize
        // As for files (FileScanner): 64 KiB, or a quarter of a small test chunk.
        overlap = min(64 << 10, chunkSize / 4)
        rereadContext = min(4096, chunkSize / 8)
        storage = .allocate(byteCount: chunkSize, alignment: 64)
    }

    deinit { storage.deallocate() }

    struct Scanned {
        /// Positions are the blob's (byte offsets from its start, lines counted from its
        /// first line); secret hashes computed.
        var findings: [BufferFinding] = []
        var binary = false
        /// False when git's output ended inside the blob.
        var complete = true
        /// What a transform could not do with a chunk (`BufferPipeline.transformProblems`),
        /// and for an archive each problem as `member!inner: message`.
        var problems: [String] = []
        /// An archive's problems with their member chains (also in `problems`, as text).
        var archiveIssues: [(members: [[UInt8]], message: String)] = []
    }

    /// Reads the rest of `stream` (a blob of `size` bytes) chunk by chunk through `scanner`.
    ///
    /// As for files (FileScanner with ChunkReader): a match that runs up to the end of a
    /// chunk with more blob after it (PCRE2 partial matching) and starts in the chunk's
    /// second half is tried again with the next chunk, which then starts `rereadContext`
    /// bytes before it, so every match up to half a chunk long is found wherever it lies; a
    /// longer one crossing a boundary is a rule failure (an error entry), never a silent miss.
    /// Columns of a line that crosses a boundary are carried into the next chunk.
    func scan(_ stream: CatFileReader.ObjectStream, size: Int, with pipeline: BufferPipeline, context: MatchContext,
              onFailure: (RuleFailure) -> Void) -> Scanned {
        var out = Scanned()
        var binary: Bool?
        // A blob too large to hold has no object map (its load commands may lie anywhere):
        // binary bytes are placed as `raw`, at their offsets in the blob.
        var layout: BinaryLayout?
        var filled = 0       // bytes in storage, from storage[0]
        var chunkStart = 0   // blob offset of storage[0]
        var acceptStart = 0  // where this chunk's own bytes start in storage
        var linesBefore = 0
        var columnsBefore = 0
        while true {
            let wanted = min(chunkSize - filled, stream.remaining)
            if wanted > 0 {
                guard stream.read(into: storage + filled, count: wanted) else { out.complete = false; break }
                filled += wanted
            }
            if filled == 0 { break }
            let bytes = UnsafeRawBufferPointer(start: storage, count: filled)
            if binary == nil {
                // An archive is opened as a whole blob's would be, streamed on from git under the
                // same limits; its members' findings carry their member steps.
                var cut = false
                if let archive = ArchiveMemberScan.scanStream(head: bytes, fill: { buffer in
                    let count = min(buffer.count, stream.remaining)
                    guard count > 0 else { return 0 }
                    guard stream.read(into: buffer.baseAddress!, count: count) else { cut = true; return -1 }
                    return count
                }, pipeline: pipeline, contextPath: context.path) {
                    out.findings = archive.findings
                    out.archiveIssues = archive.issues
                    out.problems += archive.issues.map(ArchiveMemberScan.BlobScan.text)
                    out.binary = true
                    out.complete = !cut
                    return out
                }
                binary = ChunkReader.looksBinary(bytes)
                if binary! { layout = .raw }
            }
            let last = stream.remaining == 0
            let acceptEnd = last ? filled : filled - overlap
            let base = chunkStart
            let resumable = last ? nil : max(acceptStart, chunkSize / 2 + rereadContext)..<acceptEnd
            pipeline.scan(part: bytes, layout: layout, baseOffset: base, context: context, accept: acceptStart..<acceptEnd,
                          linesBefore: linesBefore, columnsBefore: columnsBefore, resumable: resumable, onFinding: { f in
                var f = f
                f.range = (f.range.lowerBound + base)..<(f.range.upperBound + base)
                out.findings.append(f)
            }, onFailure: onFailure)
            for problem in pipeline.transformProblems where !out.problems.contains(problem) { out.problems.append(problem) }
            if last { break }
            // Where the next chunk starts: the end of this one's own bytes, or the re-read
            // context before the resume point.
            var end = acceptEnd
            var nextAcceptStart = 0
            if let resume = pipeline.resumeAt, resume > acceptStart + rereadContext, resume < acceptEnd {
                end = resume - rereadContext
                nextAcceptStart = rereadContext
            }
            if !binary! {
                let head = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
                linesBefore += TextPosition.countNewlines(head)
                columnsBefore = TextPosition.columns(before: end, in: bytes, carried: columnsBefore)
            }
            storage.copyMemory(from: storage + end, byteCount: filled - end)
            chunkStart += end
            filled -= end
            acceptStart = nextAcceptStart
        }
        out.binary = binary ?? false
        return out
    }
}
