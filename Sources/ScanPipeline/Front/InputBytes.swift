import Archives
import FileInputs
import GitHistory
import POSIXIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one input, as its producer hands them to the front (`InputFront`) with the
/// input's provenance. A producer (the folder walk, standard input, history, staged files,
/// an archive's members) only says where the bytes are; the front reads them, sniffs them,
/// opens an archive or lays out a binary, and chunks them into the `BufferPipeline`.
///
/// (The design calls this the byte source. `ObjectFiles.ByteSource` is another thing: the
/// random-access reader the object-file parsers take, which the layout stage builds from
/// these bytes.)
enum InputBytes {
    /// A regular file by name (a folder's file, standard input's in-memory file): opened
    /// once and read in chunks (`ChunkReader`); whatever needs more of it (its end, its
    /// object map, an archive's members and raw bytes) reads through the same descriptor,
    /// never by the name again.
    case file(FileEntry)
    /// Bytes held whole in memory (a history blob in its parcel, a staged file), valid for
    /// the call.
    case memory(UnsafeRawBufferPointer)
    /// A git blob too large to hold, `size` bytes streamed from `git cat-file`, read front
    /// to back once, one chunk at a time.
    case gitStream(CatFileReader.ObjectStream, size: Int)
    /// A member of an archive being read, streamed out of its parent (valid inside the
    /// parent's `forEachMember` body): read whole into `buffer` when it is no archive itself.
    case member(ArchiveMember, buffer: ArchiveMemberBuffer)

    /// The last `ArchiveKind.tailLength` bytes of the regular file open as `fd` (all of it
    /// when it is shorter), read with pread through `POSIX` (the descriptor's offset is not
    /// moved), and its size; nil when they cannot be read whole.
    static func tail(fileDescriptor fd: Int32) -> (bytes: [UInt8], size: Int)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        let count = min(ArchiveKind.tailLength, size)
        var tail = [UInt8](repeating: 0, count: count)
        let got = tail.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: Int64(size - count)) }
        return got.count == count && got.error == nil ? (tail, size) : nil
    }
}
