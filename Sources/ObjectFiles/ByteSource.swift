#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// Random access to a file's bytes. Parsers only see the file through this, so every read is
/// bounds-checked in one place and a lying header turns into an error instead of a trap.
public protocol ByteSource {
    var size: Int { get }
    /// The `count` bytes at `offset`; throws when any of them is outside `0..<size` or I/O fails.
    func read(at offset: Int, count: Int) throws -> [UInt8]
}

extension ByteSource {
    /// Overflow-safe form of `0 <= offset && offset + count <= size`.
    func contains(offset: Int, count: Int) -> Bool {
        guard offset >= 0, count >= 0 else { return false }
        let (end, overflow) = offset.addingReportingOverflow(count)
        return !overflow && end <= size
    }

    func checkRange(offset: Int, count: Int) throws {
        guard contains(offset: offset, count: count) else {
            throw ObjectFileError("read of \(count) bytes at offset \(offset) is outside the file (size \(size))")
        }
    }
}

/// Bytes already in memory (tests, fuzzing, small files).
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var size: Int { bytes.count }

    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        try checkRange(offset: offset, count: count)
        return Array(bytes[offset..<(offset + count)])
    }
}

/// A file read with `pread`, so the parser touches only headers and tables and never maps or
/// slurps a multi-gigabyte binary. The descriptor stays the caller's: it is not closed here.
public final class FileByteSource: ByteSource {
    public let fileDescriptor: Int32
    public let size: Int

    public init(fileDescriptor: Int32) throws {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else {
            throw ObjectFileError("fstat failed (errno \(errno))")
        }
        guard info.st_size >= 0, let size = Int(exactly: info.st_size) else {
            throw ObjectFileError("file size \(info.st_size) is not usable")
        }
        self.fileDescriptor = fileDescriptor
        self.size = size
    }

    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        try checkRange(offset: offset, count: count)
        if count == 0 { return [] }
        var result = [UInt8](repeating: 0, count: count)
        let got = result.withUnsafeMutableBytes { POSIX.preadFully(fileDescriptor, into: $0, at: Int64(offset)) }
        if let failure = got.error {
            throw ObjectFileError("read failed at offset \(offset + got.count) (errno \(failure))")
        }
        if got.count < count {
            // The file shrank after fstat: report it rather than hand back zeros.
            throw ObjectFileError("file ended at offset \(offset + got.count) while reading \(count) bytes at \(offset)")
        }
        return result
    }
}
