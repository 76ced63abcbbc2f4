#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// A piece of a file, in a buffer the reader owns and reuses.
public struct Chunk {
    public var bytes: UnsafeRawBufferPointer
    /// Where `bytes` starts in the file.
    public var fileOffset: Int
    /// The part of `bytes` this chunk is responsible for: matches starting in it are
    /// reported here; later bytes are the overlap that the next chunk reports.
    public var accept: Range<Int>
    /// Whether the file looked binary (a NUL byte in its first 8 KiB).
    public var isBinary: Bool
    /// Whether this is the file's last chunk.
    public var isLast: Bool
    /// The open file the chunk was read from, valid during the callback only. Anything
    /// that needs more of the file (the object-file layout) reads through it, never by
    /// path: the name may meanwhile point at something else, such as a FIFO.
    public var fileDescriptor: Int32
}

/// Reads a file in bounded, overlapping chunks so memory stays flat however large the
/// file is, and a secret straddling a chunk boundary is still seen whole by one chunk.
/// Holes of sparse files are skipped without reading them (they are zeros: no text).
public final class ChunkReader {
    public let chunkSize: Int
    public let overlap: Int
    /// Bytes kept before a resume point (`resume(at:)`), so the match there is tried with
    /// what precedes it (lookbehinds, word boundaries, the keyword that woke its rule: a
    /// match starts at most 256 bytes after its keyword).
    public let rereadContext: Int
    private let storage: UnsafeMutableRawBufferPointer
    private var pendingResume: Int?

    public struct ReadError: Error { public let message: String }

    public init(chunkSize: Int = 8 << 20, overlap: Int = 64 << 10) {
        precondition(chunkSize > overlap * 2)
        self.chunkSize = chunkSize
        self.overlap = overlap
        rereadContext = min(4096, chunkSize / 8)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// Called from `read`'s body: the next chunk reports matches from file offset `offset`
    /// on, rather than from where this chunk's accepted bytes end, because a match starting
    /// there may be longer than the overlap. Its buffer starts `rereadContext` bytes
    /// earlier; the bytes are taken from this buffer, not read again. Ignored unless
    /// `offset` lies in this chunk's accepted bytes, past its first `rereadContext`, and
    /// the chunk is not the last before the end or a hole.
    public func resume(at offset: Int) { pendingResume = offset }

    /// Called from `read`'s body: no chunk follows this one; `read` returns after the body
    /// (a file opened as an archive was read through its members instead).
    public func stop() { stopRequested = true }
    private var stopRequested = false

    public static let sniffLength = 8192

    /// Whether content looks binary: a NUL byte in its first 8 KiB, as git and ripgrep
    /// decide. Every input (file chunks, git blobs, staged files) asks this one question.
    public static func looksBinary(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0, min(bytes.count, sniffLength)) != nil
    }

    /// Calls `body` for each chunk in file order. Throws (after the chunks read so far)
    /// when the file cannot be opened or read, or holds more than `limit` bytes.
    /// - Parameter limit: no byte at or past this offset is read, whatever the file's size
    ///   says (`/proc` files say 0 and can be of any length); a file found to go on past it
    ///   throws once the bytes before it were handed over.
    public func read(_ entry: FileEntry, limit: Int = .max, _ body: (Chunk) -> Void) throws {
        let fd = entry.osPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw ReadError(message: FileWalker.describe(errno)) }
        defer { close(fd) }
        // The name was a regular file when listed; make sure it still is (a FIFO swapped
        // in would block a read forever).
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw ReadError(message: "not a regular file")
        }
        if Int(st.st_size) > limit {
            throw ReadError(message: "file is \(st.st_size) bytes, over the \(limit)-byte limit; not scanned (raise --max-file-size)")
        }
        let mayBeSparse = Int(st.st_size) > chunkSize
        var isBinary: Bool? = nil
        var filled = 0          // bytes in storage, from storage[0]
        var bufferStart = 0     // file offset of storage[0]
        var position = 0        // next file offset to read
        var eof = false
        var tooLarge = false
        var acceptStart = 0     // where this chunk's own bytes start in storage
        while true {
            var holeAhead = false
            while !eof && filled < chunkSize {
                if mayBeSparse, let dataStart = ChunkReader.nextData(fd, from: position), dataStart != position {
                    if filled > 0 { holeAhead = true; break }
                    if dataStart < 0 { eof = true; break }
                    guard lseek(fd, off_t(dataStart), SEEK_SET) >= 0 else { throw ReadError(message: FileWalker.describe(errno)) }
                    position = dataStart
                    bufferStart = dataStart
                }
                if position >= limit {
                    // Up to the limit; one byte more means the file is larger than allowed.
                    var probe: UInt8 = 0
                    let n = POSIX.read(fd, &probe, 1)
                    if n < 0 { throw ReadError(message: FileWalker.describe(errno)) }
                    if n > 0 { tooLarge = true }
                    eof = true
                    break
                }
                let n = POSIX.read(fd, storage.baseAddress! + filled, min(chunkSize - filled, limit - position))
                if n < 0 { throw ReadError(message: FileWalker.describe(errno)) }
                if n == 0 { eof = true; break }
                filled += n
                position += n
            }
            if filled == 0 {
                if tooLarge { throw ChunkReader.overLimit(limit) }
                return
            }
            if isBinary == nil {
                isBinary = ChunkReader.looksBinary(UnsafeRawBufferPointer(rebasing: storage[0..<filled]))
            }
            // Nothing contiguous follows after end of file or before a hole: this chunk
            // answers for all of its bytes.
            let final = eof || holeAhead
            let acceptEnd = final ? filled : filled - overlap
            pendingResume = nil
            stopRequested = false
            body(Chunk(bytes: UnsafeRawBufferPointer(rebasing: storage[0..<filled]), fileOffset: bufferStart,
                       accept: acceptStart..<acceptEnd, isBinary: isBinary!, isLast: eof, fileDescriptor: fd))
            if stopRequested { return }
            if eof {
                if tooLarge { throw ChunkReader.overLimit(limit) }
                return
            }
            if holeAhead {
                filled = 0
                acceptStart = 0
                bufferStart = position
                continue
            }
            if let resume = pendingResume.map({ $0 - bufferStart }),
               resume > acceptStart + rereadContext, resume < acceptEnd {
                let shift = resume - rereadContext
                storage.baseAddress!.copyMemory(from: storage.baseAddress! + shift, byteCount: filled - shift)
                bufferStart += shift
                filled -= shift
                acceptStart = rereadContext
                continue
            }
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + acceptEnd, byteCount: overlap)
            bufferStart += acceptEnd
            filled = overlap
            acceptStart = 0
        }
    }

    static func overLimit(_ limit: Int) -> ReadError {
        ReadError(message: "file goes on past the \(limit)-byte limit although its size said less; only the first \(limit) bytes were scanned (raise --max-file-size)")
    }

    /// The next offset holding data at or after `from`, -1 when only a hole remains, nil
    /// when the file system cannot tell (then everything is read).
    static func nextData(_ fd: Int32, from: Int) -> Int? {
        #if os(Linux)
        let seekData: Int32 = 3  // SEEK_DATA; Glibc hides it behind _GNU_SOURCE
        let r = lseek(fd, off_t(from), seekData)
        if r < 0 { return errno == ENXIO ? -1 : nil }
        // SEEK_DATA moved the file position; put it back where reading continues.
        if lseek(fd, off_t(from), SEEK_SET) < 0 { return nil }
        return Int(r)
        #else
        return nil
        #endif
    }
}
