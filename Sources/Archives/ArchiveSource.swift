/// Where an archive's bytes come from. Never a path: libarchive sees the bytes only through
/// keyshape's read callbacks, so it opens no file and writes none.
public enum ArchiveSource {
    /// Bytes in memory (a mapped or read file, a git blob).
    case bytes([UInt8])
    /// Bytes in memory the caller owns (a mapped file, a blob buffer): must stay valid until
    /// `forEachMember` returns; never copied.
    case buffer(UnsafeRawBufferPointer)
    /// An open descriptor, read with pread from offset 0 and sought within (a regular file);
    /// a descriptor that cannot seek (a pipe) is read once, front to back. Not closed here.
    case fileDescriptor(Int32)
    /// A member of an archive being read (a nested archive), streamed out of its parent
    /// without being held whole: valid only inside the parent's `forEachMember` body.
    case member(ArchiveMember)
    /// Bytes read front to back through a callback that fills the buffer it is given and
    /// returns how many bytes it put there (0 at the end, -1 when the source failed): a git
    /// blob too large to hold, streamed from `git cat-file` while it is read. Never sought;
    /// a zip is read by its local headers, as a nested one is.
    case stream((UnsafeMutableRawBufferPointer) -> Int)
}
