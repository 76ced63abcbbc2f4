import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// The state behind libarchive's read, seek and skip callbacks for one opened archive: a
/// position in the source and one block of at most `readBlockBytes` handed out at a time.
///
/// `delivered` counts every byte handed to libarchive; a member's share of it is the
/// compressed size its compression ratio is measured against.
final class SourceCursor {
    enum Backing {
        case memory(UnsafeRawBufferPointer)
        /// `size` nil: a stream (a pipe), whose first bytes `prefix` were already read to sniff it.
        case descriptor(Int32, size: Int64?, prefix: [UInt8])
        case member(ArchiveMember)
        case stream((UnsafeMutableRawBufferPointer) -> Int)
    }

    let backing: Backing
    let blockBytes: Int
    private(set) var position: Int64 = 0
    private(set) var delivered: Int64 = 0
    /// The source failed under libarchive (an I/O error, or the parent member stopped): the
    /// problem is the source's, already reported where it happened (or recorded here).
    private(set) var failed = false
    private(set) var failedErrno: Int32 = 0
    private var block: UnsafeMutableRawBufferPointer?

    init(_ backing: Backing, blockBytes: Int) {
        self.backing = backing
        self.blockBytes = blockBytes
    }

    deinit { block?.deallocate() }

    var isSeekable: Bool {
        switch backing {
        case .memory: return true
        case .descriptor(_, let size, _): return size != nil
        case .member, .stream: return false
        }
    }

    var size: Int64? {
        switch backing {
        case .memory(let bytes): return Int64(bytes.count)
        case .descriptor(_, let size, _): return size
        case .member, .stream: return nil
        }
    }

    private func scratch() -> UnsafeMutableRawBufferPointer {
        if let block { return block }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 16)
        block = made
        return made
    }

    /// The next block: its start and length, 0 at the end, -1 on a failure.
    func read(_ out: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        switch backing {
        case .memory(let bytes):
            let start = Int(min(position, Int64(bytes.count)))
            let count = min(blockBytes, bytes.count - start)
            return deliver(count > 0 ? UnsafeRawPointer(bytes.baseAddress! + start) : nil, count, to: out)
        case .descriptor(let fd, let size, let prefix):
            let buffer = scratch()
            if size == nil, position < Int64(prefix.count) {
                let count = min(blockBytes, prefix.count - Int(position))
                prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(position), byteCount: count) }
                return deliver(UnsafeRawPointer(buffer.baseAddress), count, to: out)
            }
            let got = size != nil ? POSIX.pread(fd, buffer.baseAddress, blockBytes, at: position)
                                  : POSIX.read(fd, buffer.baseAddress, blockBytes)
            guard got >= 0 else {
                failed = true
                failedErrno = errno
                return -1
            }
            return deliver(UnsafeRawPointer(buffer.baseAddress), got, to: out)
        case .member(let parent):
            let buffer = scratch()
            let got = parent.read(into: buffer)
            if got == 0, parent.problem != nil {
                failed = true
                return -1
            }
            return deliver(UnsafeRawPointer(buffer.baseAddress), got, to: out)
        case .stream(let fill):
            let buffer = scratch()
            let got = fill(buffer)
            guard got >= 0 else {
                failed = true
                return -1
            }
            return deliver(UnsafeRawPointer(buffer.baseAddress), min(got, buffer.count), to: out)
        }
    }

    /// Hands libarchive `count` bytes at `start` and moves past them.
    private func deliver(_ start: UnsafeRawPointer?, _ count: Int, to out: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        out.pointee = start
        position += Int64(count)
        delivered += Int64(count)
        return count
    }

    /// lseek's contract on the source; -1 (ARCHIVE_FATAL's meaning for libarchive) when it
    /// cannot seek or the target lies outside the source.
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        guard isSeekable, let size else { return Int64(ARCHIVE_FATAL) }
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: return Int64(ARCHIVE_FATAL)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return Int64(ARCHIVE_FATAL) }
        position = min(target, size)
        return position
    }

    /// Skips up to `request` bytes without reading them (seekable sources only; libarchive
    /// reads through a stream itself when this returns 0).
    func skip(_ request: Int64) -> Int64 {
        guard isSeekable, let size, request > 0 else { return 0 }
        let step = min(request, size - position)
        position += max(0, step)
        return max(0, step)
    }
}

// The C callbacks: the client data is the cursor, unretained (the reader keeps it alive
// until archive_read_free).
let cursorRead: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> la_ssize_t = { _, data, out in
    guard let data, let out else { return -1 }
    return la_ssize_t(Unmanaged<SourceCursor>.fromOpaque(data).takeUnretainedValue().read(out))
}

let cursorSeek: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, la_int64_t, Int32) -> la_int64_t = { _, data, offset, whence in
    guard let data else { return la_int64_t(ARCHIVE_FATAL) }
    return Unmanaged<SourceCursor>.fromOpaque(data).takeUnretainedValue().seek(offset, whence: whence)
}

let cursorSkip: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, la_int64_t) -> la_int64_t = { _, data, request in
    guard let data else { return 0 }
    return Unmanaged<SourceCursor>.fromOpaque(data).takeUnretainedValue().skip(request)
}
