import Archives
import FileInputs
import MatchEngine

extension InputFront {
    /// A regular file, in `ChunkReader`'s bounded, overlapping chunks through one descriptor.
    /// A container (by its first chunk, and for a binary file also by its end) is its
    /// members; a self-extractor is its members and its chunks too.
    func scanFile(_ entry: FileEntry, path: String, sink: Sink) -> Outcome {
        var out = Outcome()
        let reader = chunkReader
        var linesBefore = 0
        // Columns of the line the next chunk starts in that lie before it (a line longer
        // than the overlap crosses chunk boundaries), and where that chunk should start.
        var columnsBefore = 0
        var nextStart = 0
        var layout: BinaryLayout? = nil
        var reported: [String] = []
        let context = InputPlace(path: path)
        do {
            try reader.read(entry, limit: options.maxFileSize) { chunk in
                if chunk.fileOffset == 0, options.maxArchiveDepth > 0, let claim = containerClaim(chunk) {
                    out.claim = claim
                    out.archiveBytes += open(claim, .fileDescriptor(chunk.fileDescriptor), path: path, sink: sink)
                    if claim.opening == .members {
                        out.binary = true
                        reader.stop()
                        return
                    }
                }
                out.binary = chunk.isBinary
                if chunk.isBinary && layout == nil {
                    beforeLayout?()
                    // Known object formats are told apart by magic number, never by name.
                    let (loaded, problems) = BinaryLayout.load(fileDescriptor: chunk.fileDescriptor, firstBytes: chunk.bytes)
                    layout = loaded
                    for problem in problems { sink.onProblem([], problem) }
                }
                // Bytes skipped as a hole are NULs: a column each, no newline.
                if chunk.fileOffset > nextStart { columnsBefore += chunk.fileOffset - nextStart }
                // More bytes follow in the file: a match that runs on past this buffer's end
                // may be longer than the overlap, so one starting after the buffer's first
                // half is read again with the next chunk, starting there (at least half a
                // chunk of progress per read, so at most twice the reading); one starting
                // earlier is longer than half a chunk (4 MiB) and an error entry.
                let resumable = chunk.accept.upperBound < chunk.bytes.count
                    ? max(chunk.accept.lowerBound, reader.chunkSize / 2 + reader.rereadContext)..<chunk.accept.upperBound : nil
                let base = chunk.fileOffset
                match(chunk.bytes, layout: chunk.isBinary ? layout : nil, baseOffset: base, context: context,
                      accept: chunk.accept, linesBefore: linesBefore, columnsBefore: columnsBefore, resumable: resumable,
                      onFinding: { f in
                    var f = f
                    f.range = (f.range.lowerBound + base)..<(f.range.upperBound + base)
                    sink.onFinding(f)
                }, onFailure: { sink.onFailure($0, .input) })
                reportTransformProblems(&reported, sink)
                // This chunk answers for its accepted bytes up to the resume point, if any.
                let resumeAt = pipeline.resumeAt
                let own = chunk.accept.lowerBound..<(resumeAt ?? chunk.accept.upperBound)
                if let resumeAt { reader.resume(at: chunk.fileOffset + resumeAt) }
                sink.onRead(own.count)
                if !chunk.isBinary && !chunk.isLast {
                    // Where the next chunk's buffer starts: the end of this one's accepted
                    // bytes, or the re-read context before the resume point.
                    let end = resumeAt.map { $0 - reader.rereadContext } ?? chunk.accept.upperBound
                    let head = UnsafeRawBufferPointer(rebasing: chunk.bytes[0..<end])
                    linesBefore += TextPosition.countNewlines(head)
                    columnsBefore = TextPosition.columns(before: end, in: chunk.bytes, carried: columnsBefore)
                    nextStart = chunk.fileOffset + end
                }
            }
        } catch let error as ChunkReader.ReadError {
            out.readError = error.message
        } catch {
            out.readError = "read failed"
        }
        return out
    }

    /// The container a file's first chunk shows: by its first bytes, or for a binary file also
    /// by its end (a zip's end record), read through the same descriptor. A text file's end
    /// is not read: that would cost every source file a second read for a case binaries hold.
    private func containerClaim(_ chunk: Chunk) -> ContainerStages.Claim? {
        if let claim = containers.claim(head: chunk.bytes, tail: nil, totalSize: 0) { return claim }
        guard chunk.isBinary, let (tail, size) = InputBytes.tail(fileDescriptor: chunk.fileDescriptor) else { return nil }
        return tail.withUnsafeBytes { containers.claim(head: chunk.bytes, tail: $0, totalSize: size) }
    }
}
