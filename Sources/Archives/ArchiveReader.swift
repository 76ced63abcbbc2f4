import CArchive
import ScanCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// Reads an archive member by member from memory, a descriptor or a parent member, handing
/// each regular file to the caller as a stream, under the limits of a budget it shares with
/// every archive nested in the same top-level one.
///
/// Memory: keyshape holds one read block (`readBlockBytes`, 64 KiB) per open level plus one
/// scratch block for discarding, and the caller's chunk; libarchive adds its decompressor
/// state (deflate's 32 KiB window, bzip2's at most 3.6 MiB, an xz or zstd window up to what
/// the stream declares, touched only as far as output is written). Members are never held
/// whole, never written to disk; names are never used as paths.
///
/// Errors are values: `forEachMember` returns the problems it met (also in `problems`) and
/// reads on past each one where the format allows: a corrupt member of a zip or plain tar
/// read from memory or a file is passed over by reopening the archive after it; in a
/// compressed stream the members after a fatal error cannot be reached and are reported so.
public final class ArchiveReader {
    public let source: ArchiveSource
    public let budget: ArchiveBudget
    /// 1 for a top-level archive, one more per level of nesting.
    public let depth: Int
    public private(set) var kind: ArchiveKind?
    public private(set) var problems: [ArchiveProblem] = []
    /// Where each regular member's data (stored or compressed, as it lies in the source)
    /// was read from, in source offsets, when libarchive read the source's own bytes (no
    /// compression filter between): every other byte of the source lies outside the members
    /// (headers, a zip's directory and comment, a tar's pax records and what follows its end
    /// blocks, a zip entry its directory leaves out) and is the caller's to scan as raw bytes
    /// (`OutsideMembers`). Empty when a filter decompressed the source (`readThroughFilter`).
    public private(set) var memberData: [Range<Int64>] = []
    /// Where every entry's data starts in the source (any type, empty ones too), so a zip
    /// local header found outside the members can be told from a listed entry's.
    public private(set) var entryDataStarts = Set<Int64>()
    /// A compression filter stood between the source and the format: `memberData` is empty
    /// and the source's bytes are compressed data.
    public private(set) var readThroughFilter = false

    /// How many times a seekable archive is reopened to pass a fatal error in one member.
    /// Each reopen re-reads the headers before that member (cheap by seeking), so the cap
    /// keeps a file of many corrupt members from costing quadratic time.
    static let maxReopens = 8

    public init(source: ArchiveSource, kind: ArchiveKind? = nil, budget: ArchiveBudget, depth: Int = 1) {
        self.source = source
        self.kind = kind
        self.budget = budget
        self.depth = depth
    }

    /// Calls `body` with each regular file member, in archive order. A member is valid only
    /// during its call; what `body` leaves unread is discarded (and counted against the
    /// limits when discarding it means decompressing it). Errors thrown by `body` stop the
    /// reading and propagate; archive problems are returned.
    @discardableResult
    public func forEachMember(_ body: (ArchiveMember) throws -> Void) rethrows -> [ArchiveProblem] {
        // A level too deep is a problem like any other, counted against the shared problem
        // limit: a 42.zip-style tree holds 65,536 archives at its fifth level, and each one
        // an error entry of its own would be a flood, not a report.
        guard depth <= budget.limits.maxDepth else {
            note(ArchiveProblem(.depthLimit))
            return problems
        }
        guard !budget.isExhausted else { return problems }
        switch source {
        case .bytes(let bytes):
            try bytes.withUnsafeBytes { try readMemory($0, body) }
        case .buffer(let buffer):
            try readMemory(buffer, body)
        case .fileDescriptor(let fd):
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                problems.append(ArchiveProblem(.sourceUnreadable, detail: ArchiveProblem.detail(from: strerror(errno))))
                return problems
            }
            if (info.st_mode & S_IFMT) == S_IFREG {
                if kind == nil { kind = ArchiveKind.sniff(fileDescriptor: fd) }
                let central = kind == .zip && Self.descriptorHasCentralDirectory(fd, size: Int64(info.st_size))
                try run(.descriptor(fd, size: Int64(info.st_size), prefix: []), centralDirectory: central, body)
            } else {
                // A stream: its head is read to sniff it and handed to libarchive first.
                let head = Self.readHead(fd)
                if kind == nil { kind = head.withUnsafeBytes { ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) } }
                try run(.descriptor(fd, size: nil, prefix: head), centralDirectory: false, body)
            }
        case .member(let parent):
            if kind == nil {
                let head = parent.peek(ArchiveKind.headLength)
                kind = head.withUnsafeBytes { ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) }
            }
            try run(.member(parent), centralDirectory: false, body)
        case .stream(let fill):
            // The head is read to sniff it (when the caller did not) and handed on first.
            var head: [UInt8] = []
            var ended = false
            if kind == nil {
                head = [UInt8](repeating: 0, count: ArchiveKind.headLength)
                var filled = 0
                while filled < head.count {
                    let got = head.withUnsafeMutableBytes { fill(UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                    if got < 0 { ended = true; break }
                    if got == 0 { break }
                    filled += got
                }
                head.removeSubrange(filled...)
                kind = head.withUnsafeBytes { ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) }
            }
            if ended {
                problems.append(ArchiveProblem(.sourceUnreadable))
                return problems
            }
            var served = 0
            let prefixed: (UnsafeMutableRawBufferPointer) -> Int = { buffer in
                guard served < head.count else { return fill(buffer) }
                let count = min(buffer.count, head.count - served)
                head.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + served, byteCount: count) }
                served += count
                return count
            }
            try run(.stream(prefixed), centralDirectory: false, body)
        }
        return problems
    }

    private func readMemory(_ buffer: UnsafeRawBufferPointer, _ body: (ArchiveMember) throws -> Void) rethrows {
        if kind == nil { kind = ArchiveKind.sniff(buffer) }
        let central = ArchiveKind.hasEndOfCentralDirectory(UnsafeRawBufferPointer(rebasing: buffer.suffix(ArchiveKind.tailLength)),
                                                            totalSize: Int64(buffer.count))
        try run(.memory(buffer), centralDirectory: central, body)
    }

    private static func readHead(_ fd: Int32) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: ArchiveKind.headLength)
        let filled = head.withUnsafeMutableBytes { POSIX.readFully(fd, into: $0) }.count
        return Array(head[0..<filled])
    }

    /// Whether the regular file `fd` (of `size` bytes) ends in a zip's end record; its last
    /// bytes read with pread through `POSIX`, used only when all of them were read.
    private static func descriptorHasCentralDirectory(_ fd: Int32, size: Int64) -> Bool {
        let count = Int(min(Int64(ArchiveKind.tailLength), size))
        var tail = [UInt8](repeating: 0, count: count)
        let got = tail.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: size - Int64(count)) }
        return got.count == count && got.error == nil && tail.withUnsafeBytes { ArchiveKind.hasEndOfCentralDirectory($0, totalSize: size) }
    }

    /// Whether the members after one stopped early can be reached without decompressing the
    /// rest of it: by seeking; or, with no compression filter, by reading past its stored
    /// bytes (a zip member whose sizes the local header gives; a tar or ar member always).
    /// A zip member that gives its sizes only after its data can be passed only by inflating
    /// it to its end, which is the bomb itself.
    private func canPassStoppedMember(_ session: ArchiveSession, declaredSize: Int64?) -> Bool {
        if session.canSkipCheaply { return true }
        if session.hasCompressionFilter { return false }
        return kind != .zip || declaredSize != nil
    }

    /// Keeps a problem, up to the shared problem limit; the one past it becomes the last.
    private func note(_ problem: ArchiveProblem) {
        if budget.admitProblem() {
            problems.append(problem)
        } else if budget.problems == budget.limits.maxProblems + 1 {
            problems.append(ArchiveProblem(.problemLimit))
        }
    }

    /// A member's data ends where the format stopped consuming after it: for a zip the
    /// compressed bytes (and the data descriptor after them); for a tar or ar member at most
    /// its size, so the padding after it (which no reader shows, and which may hold anything)
    /// stays outside the members.
    private func recordMemberData(from start: Int64, declared: Int64?, handle: OpaquePointer) {
        var end = archive_filter_bytes(handle, 0)
        if kind != .zip, let declared { end = min(end, start + max(0, declared)) }
        if end > start { memberData.append(start..<end) }
    }

    private enum Next { case done, reopen(after: Int) }

    /// Names of zip entries found sharing another entry's data (reported, then not read).
    private var overlapping = Set<[UInt8]>()

    /// The overlapping entries of a seekable zip with a central directory.
    private static func overlappingEntries(_ backing: SourceCursor.Backing, maxEntries: Int) -> [[UInt8]] {
        switch backing {
        case .memory(let bytes):
            return ZipCentralDirectory.overlapping(size: Int64(bytes.count), maxEntries: maxEntries) { offset, count in
                guard offset >= 0, count >= 0, offset + Int64(count) <= Int64(bytes.count) else { return nil }
                return Array(bytes[Int(offset)..<(Int(offset) + count)])
            }
        case .descriptor(let fd, let size?, _):
            return ZipCentralDirectory.overlapping(size: size, maxEntries: maxEntries) { offset, count in
                guard offset >= 0, count >= 0, offset + Int64(count) <= size else { return nil }
                var out = [UInt8](repeating: 0, count: count)
                let got = out.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: offset) }
                return got.count == count ? out : nil
            }
        default:
            return []
        }
    }

    private func run(_ backing: SourceCursor.Backing, centralDirectory: Bool, _ body: (ArchiveMember) throws -> Void) rethrows {
        guard let kind else {
            problems.append(ArchiveProblem(.unreadable))
            return
        }
        if kind == .zip, centralDirectory {
            for name in Self.overlappingEntries(backing, maxEntries: budget.limits.maxMembers) where !budget.isExhausted {
                note(ArchiveProblem(.overlapping, member: name))
                overlapping.insert(name)
            }
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: budget.limits.readBlockBytes, alignment: 16)
        defer { scratch.deallocate() }
        var resumeAfter = -1
        var reopens = 0
        while true {
            let cursor = SourceCursor(backing, blockBytes: budget.limits.readBlockBytes)
            guard let session = ArchiveSession.open(cursor, kind: kind, budget: budget, sink: { [unowned self] in note($0) }) else {
                return
            }
            let zipCanSeek = kind != .zip || centralDirectory
            switch try read(session, resumeAfter: resumeAfter, zipCanSeek: zipCanSeek, scratch: scratch, body) {
            case .done:
                return
            case .reopen(let after):
                reopens += 1
                resumeAfter = after
            }
            if reopens > Self.maxReopens {
                problems.append(ArchiveProblem(.remainderUnread))
                return
            }
        }
    }

    private func read(_ session: ArchiveSession, resumeAfter: Int, zipCanSeek: Bool,
                      scratch: UnsafeMutableRawBufferPointer, _ body: (ArchiveMember) throws -> Void) rethrows -> Next {
        let handle = session.handle
        var index = -1
        var lastName: [UInt8]?
        while !budget.isExhausted {
            var entry: OpaquePointer?
            var status = ArchiveSession.withUTF8Names { archive_read_next_header(handle, &entry) }
            var retries = 0
            while status == ARCHIVE_RETRY, retries < 3 {
                status = ArchiveSession.withUTF8Names { archive_read_next_header(handle, &entry) }
                retries += 1
            }
            if status == ARCHIVE_EOF { return .done }
            index += 1
            if index == 0 {
                session.hasCompressionFilter = archive_filter_code(handle, 0) != ARCHIVE_FILTER_NONE
                session.canSkipCheaply = session.cursor.isSeekable && zipCanSeek && !session.hasCompressionFilter
                if session.hasCompressionFilter { readThroughFilter = true }
            }
            guard status >= ARCHIVE_WARN, let entry else {
                // A header that cannot be read: the entry is lost; after a fatal one so is the
                // rest (its position is unknown, so reopening could not pass it).
                session.record(session.problem(from: Int(status), member: nil))
                if status == ARCHIVE_FATAL || status == ARCHIVE_RETRY {
                    if let lastName { session.record(ArchiveProblem(.remainderUnread, member: lastName)) }
                    return .done
                }
                continue
            }
            // What the format has consumed of the source so far: with no filter between,
            // the offset of this entry's data in the source. Kept for every entry (skipped,
            // encrypted, overlapping or empty too), so none of them is taken for an entry
            // that the zip's directory leaves out.
            let dataStart = session.hasCompressionFilter ? -1 : archive_filter_bytes(handle, 0)
            if dataStart >= 0 { entryDataStarts.insert(dataStart) }
            if index <= resumeAfter { continue }
            // A name libarchive could not give (a UTF-8-flagged name that is not UTF-8) is
            // named by its position, so two such members stay two places.
            let name = ArchiveSession.withUTF8Names { ArchiveSession.name(of: entry) }
                ?? Array("<entry \(index): name not decodable>".utf8)
            lastName = name
            if !overlapping.isEmpty, overlapping.contains(name) { continue }
            guard budget.admitMember() else {
                session.record(ArchiveProblem(.memberLimit, member: name))
                return .done
            }
            if archive_entry_is_data_encrypted(entry) != 0 {
                session.record(ArchiveProblem(.encrypted, member: name))
                continue
            }
            let declared = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
            let member = ArchiveMember(name: name, declaredSize: declared, index: index, session: session)
            // A type of 0 is an entry that states none (GNU ar writes a bare "644"): its
            // content is read like a regular file's.
            let type = archive_entry_filetype(entry) & S_IFMT
            let regular = type == S_IFREG || type == 0
            if regular {
                try body(member)
            }
            // Directories, links and devices carry no content of their own (a link's target
            // is a name, never followed); whatever data they declare is discarded like a
            // regular member's unread rest (and, not being a member's, is scanned as raw bytes).
            member.finish(scratch: scratch)
            if regular, dataStart >= 0 { recordMemberData(from: dataStart, declared: declared, handle: handle) }
            if session.isFatal {
                // A truncation is the end of the input: nothing follows to read on to.
                if member.problem?.kind == .truncated { return .done }
                if session.canSkipCheaply { return .reopen(after: index) }
                session.record(ArchiveProblem(.remainderUnread, member: name))
                return .done
            }
            if member.problem?.kind == .ratioLimit, !canPassStoppedMember(session, declaredSize: declared) {
                session.record(ArchiveProblem(.remainderUnread, member: name))
                return .done
            }
        }
        return .done
    }
}
