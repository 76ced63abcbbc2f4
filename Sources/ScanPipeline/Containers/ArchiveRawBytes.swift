import Archives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// The bytes of a top-level archive as they lie in its source, for reading what lies outside
/// its members (`ArchiveMemberScan.scanOutside`): a buffer in memory (a file's bytes, a git
/// blob, a staged file) or a regular file read with pread. A member or a stream read front
/// to back has no such view (its bytes are gone once libarchive has them).
struct ArchiveRawBytes {
    private enum Backing {
        case memory(UnsafeRawBufferPointer)
        case descriptor(Int32)
    }

    private let backing: Backing
    let size: Int64

    /// The raw view of `source`, nil when it has none.
    init?(_ source: ArchiveSource) {
        switch source {
        case .buffer(let bytes):
            backing = .memory(bytes)
            size = Int64(bytes.count)
        case .fileDescriptor(let fd):
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            backing = .descriptor(fd)
            size = Int64(info.st_size)
        case .bytes, .member, .stream:
            // `.bytes` is a copy no caller of the scan hands over (callers pass `.buffer`).
            return nil
        }
    }

    /// Copies `range` (clamped to the source) to `destination`; the count copied (fewer
    /// when the file shrank or could not be read).
    func copy(_ range: Range<Int64>, to destination: UnsafeMutableRawPointer) -> Int {
        let start = max(0, min(range.lowerBound, size)), end = max(start, min(range.upperBound, size))
        let count = Int(end - start)
        switch backing {
        case .memory(let bytes):
            if count > 0 { destination.copyMemory(from: bytes.baseAddress! + Int(start), byteCount: count) }
            return count
        case .descriptor(let fd):
            return POSIX.preadFully(fd, into: UnsafeMutableRawBufferPointer(start: destination, count: count), at: start).count
        }
    }

    /// `count` bytes at `offset` (fewer at the end).
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, count))
        let got = out.withUnsafeMutableBytes { copy(offset..<(offset + Int64(count)), to: $0.baseAddress!) }
        out.removeSubrange(got...)
        return out
    }

    /// A front-to-back reader of `range`, for `ArchiveSource.stream`.
    func stream(_ range: Range<Int64>) -> (UnsafeMutableRawBufferPointer) -> Int {
        var at = range.lowerBound
        return { buffer in
            let end = min(range.upperBound, at + Int64(buffer.count))
            guard end > at else { return 0 }
            let got = copy(at..<end, to: buffer.baseAddress!)
            at += Int64(got)
            return got == 0 ? -1 : got
        }
    }

    /// The parts of `0..<size` that no range in `covered` touches, in order.
    func outside(_ covered: [Range<Int64>]) -> [Range<Int64>] {
        var gaps: [Range<Int64>] = []
        var at: Int64 = 0
        for range in covered.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let start = max(0, min(range.lowerBound, size))
            if start > at { gaps.append(at..<start) }
            at = max(at, min(range.upperBound, size))
        }
        if at < size { gaps.append(at..<size) }
        return gaps
    }
}
