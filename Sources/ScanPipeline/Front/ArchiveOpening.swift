import Archives

/// Whether an input is an archive, and what of it is then scanned: the one rule, for every
/// source the front reads (files, blobs held whole or streamed, staged files, members).
/// By content only, never by name.
enum ArchiveOpening: Equatable {
    /// An archive from its first byte (its magic number): its members are the input, and
    /// its own bytes outside the members are read as raw bytes (`scanOutside`).
    case members
    /// A zip found only by its end record, with other bytes in front (a self-extracting
    /// installer, a piece of a split zip): its members, and the input's own bytes too, as
    /// any input's (the stub in front is the input's own content, with its own layout).
    case membersAndBytes

    /// The opening `head` (the input's first bytes) and `tail` (its last
    /// `ArchiveKind.tailLength` bytes, or all of it when shorter) show; nil: no archive.
    /// - Parameter tail: nil when the end is not at hand as the first bytes are: a stream or
    ///   a member (read front to back) and a text file (its end would cost every source file
    ///   a second read for a case binaries hold). A streamed blob looks at its end when it
    ///   gets there (`StreamedBlobScanner`).
    static func of(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int) -> ArchiveOpening? {
        if ArchiveKind.sniff(head: head, tail: nil, totalSize: nil) != nil { return .members }
        guard let tail, endsWithZipDirectory(tail, totalSize: totalSize) else { return nil }
        return .membersAndBytes
    }

    /// Whether a zip's end record ends the input (`tail`: its last bytes).
    static func endsWithZipDirectory(_ tail: UnsafeRawBufferPointer, totalSize: Int) -> Bool {
        ArchiveKind.sniff(head: UnsafeRawBufferPointer(start: nil, count: 0), tail: tail, totalSize: Int64(totalSize)) == .zip
    }
}
