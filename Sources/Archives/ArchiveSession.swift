import CArchive
import ScanCore

/// One libarchive read handle over one cursor: the single place the C calls are made for
/// opening, registering formats and filters, and turning libarchive's status codes and
/// messages into `ArchiveProblem` values.
final class ArchiveSession {
    let handle: OpaquePointer
    let cursor: SourceCursor
    let budget: ArchiveBudget
    /// libarchive reported ARCHIVE_FATAL: this handle can do nothing more.
    var isFatal = false
    /// A member stopped at the ratio limit, before its end.
    var memberStoppedEarly = false
    /// Whether the data of a member not read can be passed over by seeking (a seekable source
    /// with no compression filter, and for zip the central directory in place), rather than
    /// by decompressing it. Set after the first header.
    var canSkipCheaply = false
    /// The data passes through a decompression filter (gzip, bzip2, xz, zstd): reaching the
    /// next member means decompressing everything before it. Set after the first header.
    var hasCompressionFilter = false
    private let sink: (ArchiveProblem) -> Void

    /// The compression filters libarchive provides in-process. A filter whose library is
    /// missing makes libarchive register an external program instead (ARCHIVE_WARN); keyshape
    /// runs no program on a scanned input, so such a filter is left out and those streams
    /// are reported unreadable instead.
    static let inProcessFilters: [(OpaquePointer?) -> Int32] = {
        let candidates: [(OpaquePointer?) -> Int32] = [
            archive_read_support_filter_gzip, archive_read_support_filter_bzip2,
            archive_read_support_filter_xz, archive_read_support_filter_zstd,
        ]
        return candidates.filter { register in
            guard let probe = archive_read_new() else { return false }
            defer { archive_read_free(probe) }
            return register(probe) == ARCHIVE_OK
        }
    }()

    private init(handle: OpaquePointer, cursor: SourceCursor, budget: ArchiveBudget, sink: @escaping (ArchiveProblem) -> Void) {
        self.handle = handle
        self.cursor = cursor
        self.budget = budget
        self.sink = sink
    }

    deinit { archive_read_free(handle) }

    /// Opens `cursor` as `kind`; nil when it cannot be opened (the problem is already sunk).
    static func open(_ cursor: SourceCursor, kind: ArchiveKind, budget: ArchiveBudget,
                     sink: @escaping (ArchiveProblem) -> Void) -> ArchiveSession? {
        guard let handle = archive_read_new() else {
            sink(ArchiveProblem(.unreadable))
            return nil
        }
        for register in inProcessFilters { _ = register(handle) }
        // Only the formats keyshape promises, never libarchive's full list: fewer parsers
        // exposed to hostile input, and none that reads a file by a name in the archive.
        switch kind {
        case .zip:
            if cursor.isSeekable { archive_read_support_format_zip_seekable(handle) }
            archive_read_support_format_zip_streamable(handle)
        case .tar:
            archive_read_support_format_tar(handle)
        case .ar:
            archive_read_support_format_ar(handle)
        case .gzip, .bzip2, .xz, .zstd:
            archive_read_support_format_tar(handle)
            archive_read_support_format_zip_streamable(handle)
            archive_read_support_format_ar(handle)
            // Anything else in a compressed stream (a .gz log, a .json.xz) is one member.
            archive_read_support_format_raw(handle)
            // A compressed stream of nothing (a test suite's empty `.jsn.gz`, in a real wheel)
            // is an archive with no members, not an unreadable one: raw bids only on a byte.
            archive_read_support_format_empty(handle)
        }
        archive_read_set_read_callback(handle, cursorRead)
        if cursor.isSeekable {
            archive_read_set_seek_callback(handle, cursorSeek)
            archive_read_set_skip_callback(handle, cursorSkip)
        }
        archive_read_set_callback_data(handle, Unmanaged.passUnretained(cursor).toOpaque())
        let session = ArchiveSession(handle: handle, cursor: cursor, budget: budget, sink: sink)
        let status = archive_read_open1(handle)
        if status < ARCHIVE_WARN {
            var problem = session.problem(from: Int(status), member: nil)
            if problem.kind == .corrupt { problem.kind = .unreadable }
            session.record(problem)
            return nil
        }
        return session
    }

    /// Hands a problem on, except one caused by the parent member failing under a nested
    /// archive: that one was reported by the parent, with its own member name.
    func record(_ problem: ArchiveProblem) {
        if cursor.failed, case .member = cursor.backing,
           problem.kind != .sizeLimit, problem.kind != .ratioLimit, problem.kind != .memberLimit {
            return
        }
        sink(problem)
    }

    /// The problem libarchive's current error describes, classified by its message (which is
    /// kept only escaped, as `detail`).
    func problem(from status: Int, member: [UInt8]?) -> ArchiveProblem {
        if cursor.failed, case .descriptor = cursor.backing {
            return ArchiveProblem(.sourceUnreadable, member: member,
                                  detail: ArchiveProblem.detail(from: strerror(cursor.failedErrno)))
        }
        if cursor.failed, case .stream = cursor.backing {
            return ArchiveProblem(.sourceUnreadable, member: member)
        }
        let raw = archive_error_string(handle)
        let text = raw.map { String(cString: $0) } ?? ""
        let kind: ArchiveProblem.Kind
        if text.contains("runcated") || text.contains("Premature end") || text.contains("nexpected EOF")
            || text.contains("unexpected end") {
            kind = .truncated
        } else if text.contains("ncrypt") || text.contains("passphrase") {
            kind = .encrypted
        } else if text.contains("nsupported") {
            kind = .unsupported
        } else {
            kind = .corrupt
        }
        return ArchiveProblem(kind, member: member, detail: ArchiveProblem.detail(from: raw))
    }

    /// The entry's name bytes as stored (at most 64 KiB of them); nil when libarchive could
    /// not give one.
    ///
    /// A name flagged as UTF-8 (a zip's general-purpose bit 11, which Python, Info-ZIP and
    /// jar set for any non-ASCII name; a pax `path` record) is converted by libarchive from
    /// UTF-8 to the locale's character set when the header is read, and in the C locale every
    /// non-ASCII name fails that conversion and is dropped: each such member printed as an
    /// empty name, two of them shared a fingerprint, and path-conditioned rules (`.pgpass`)
    /// never saw the path. Headers are therefore read, and names taken, under a UTF-8 locale
    /// for this thread only (`withUTF8Names`): the conversion is then UTF-8 to UTF-8 (to NFC,
    /// as libarchive normalises on every platform but Apple's), and a name stored as plain
    /// bytes (a zip without the flag, a tar's own header) is handed out as those bytes.
    static func name(of entry: OpaquePointer) -> [UInt8]? {
        guard let pointer = archive_entry_pathname(entry) ?? archive_entry_pathname_utf8(entry) else { return nil }
        let length = strnlen(pointer, 65_536)
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// The C.UTF-8 locale for LC_CTYPE (nil when the C library has none: names are then
    /// converted as before, in the process's locale).
    private static let utf8Locale: locale_t? = {
        #if canImport(Glibc)
        return newlocale(Int32(1 << LC_CTYPE), "C.UTF-8", nil)
        #else
        return newlocale(LC_CTYPE_MASK, "UTF-8", nil)
        #endif
    }()

    /// Runs `body` (libarchive's header reads and name look-ups) with this thread's locale
    /// set to `utf8Locale`, then puts the thread's own locale back. Only the calling thread
    /// is affected, and only for the call: the scan itself never runs under it.
    static func withUTF8Names<T>(_ body: () throws -> T) rethrows -> T {
        guard let utf8Locale else { return try body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return try body()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
