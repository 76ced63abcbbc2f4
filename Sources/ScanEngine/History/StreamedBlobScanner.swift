import FileInputs
import GitHistory
import ScanRules

/// Scans a blob too large to hold whole (over the chunk size) as the folder scanner scans
/// a large file: in chunks of `chunkSize` bytes read straight from git's output, each
/// overlapping the next by `overlap` bytes so a secret across a boundary is seen whole by
/// one chunk, and matches starting in the overlap left to the next chunk. Memory stays at
/// one chunk however large the blob is, whatever `maxFileSize` a config asks for.
final class StreamedBlobScanner {
    let chunkSize: Int
    let overlap: Int
    private let storage: UnsafeMutableRawPointer

    init(chunkSize: Int) {
        self.chunkSize = chunkSize
        // As for files (FileScanner): 64 KiB, or a quarter of a small test chunk.
        overlap = min(64 << 10, chunkSize / 4)
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
    }

    /// Reads the rest of `stream` (a blob of `size` bytes) chunk by chunk through `scanner`.
    func scan(_ stream: CatFileReader.ObjectStream, size: Int, with scanner: BufferScanner, context: MatchContext,
              onFailure: (_ ruleIndex: Int, _ message: String) -> Void) -> Scanned {
        var out = Scanned()
        var binary: Bool?
        var filled = 0       // bytes in storage, from storage[0]
        var chunkStart = 0   // blob offset of storage[0]
        var linesBefore = 0
        while true {
            let wanted = min(chunkSize - filled, stream.remaining)
            if wanted > 0 {
                guard stream.read(into: storage + filled, count: wanted) else { out.complete = false; break }
                filled += wanted
            }
            if filled == 0 { break }
            let bytes = UnsafeRawBufferPointer(start: storage, count: filled)
            if binary == nil { binary = ChunkReader.looksBinary(bytes) }
            let last = stream.remaining == 0
            let acceptEnd = last ? filled : filled - overlap
            let base = chunkStart
            linesBefore += scanner.scan(bytes, isBinary: binary!, context: context, accept: 0..<acceptEnd,
                                        linesBefore: linesBefore, countLines: !last, onFinding: { f in
                var f = f
                f.range = (f.range.lowerBound + base)..<(f.range.upperBound + base)
                out.findings.append(f)
            }, onFailure: onFailure)
            if last { break }
            (storage).copyMemory(from: storage + acceptEnd, byteCount: overlap)
            chunkStart += acceptEnd
            filled = overlap
        }
        out.binary = binary ?? false
        return out
    }
}
