#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one seam where the modules call read(2), pread(2), write(2), open(2) and close(2)
/// on a descriptor they hold: a call interrupted by a signal (EINTR) is made again, a short
/// read or write is continued where the loop asks for all of it, and a failure comes back as
/// its errno, never a trap. Before this, 22 retry loops in 13 files each did the same by hand.
///
/// What is particular to one call site stays there: whether an open must not block on a
/// FIFO (`O_NONBLOCK`), what a short read means (a file that shrank, a stream that ended),
/// what an error becomes. Pure system calls, no dependencies, no state.
public enum POSIX {
    /// What a loop over read(2) or pread(2) got: `count` bytes, then the end of the input
    /// (`error` nil, `count` under the request) or a failure (`error` holds its errno).
    public struct Transfer: Equatable, Sendable {
        public var count: Int
        public var error: Int32?

        public init(count: Int, error: Int32?) {
            self.count = count
            self.error = error
        }
    }

    /// Runs `call` again while it fails with EINTR (a result below 0 with errno EINTR);
    /// its last result, errno as it left it.
    @inline(__always)
    public static func retrying<R: BinaryInteger>(_ call: () -> R) -> R {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    /// One read(2) of up to `count` bytes, made again after EINTR: the count read, 0 at end
    /// of file, -1 with errno set.
    @inline(__always)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        retrying { systemRead(fd, buffer, count) }
    }

    /// One pread(2) of up to `count` bytes at `offset` (the descriptor's offset unmoved),
    /// made again after EINTR: the count read, 0 at end of file, -1 with errno set.
    @inline(__always)
    public static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int64) -> Int {
        retrying { systemPread(fd, buffer, count, off_t(offset)) }
    }

    /// Reads until `buffer` is full, the input ends or a read fails.
    public static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        var filled = 0
        while filled < buffer.count {
            let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0 { return Transfer(count: filled, error: errno) }
            if n == 0 { break }
            filled += n
        }
        return Transfer(count: filled, error: nil)
    }

    /// Reads from `offset` until `buffer` is full, the file ends or a read fails, with
    /// pread(2) (the descriptor's offset unmoved).
    public static func preadFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Transfer {
        var filled = 0
        while filled < buffer.count {
            let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, at: offset + Int64(filled))
            if n < 0 { return Transfer(count: filled, error: errno) }
            if n == 0 { break }
            filled += n
        }
        return Transfer(count: filled, error: nil)
    }

    /// Writes every byte of `bytes`, continuing partial writes and retrying EINTR: nil when
    /// all were written, else the errno of the failure (EIO for a write that took 0 bytes,
    /// which never happens for a non-empty write to a pipe, file or terminal, so the loop
    /// ends rather than spins).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = retrying { systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            if n > 0 { offset += n; continue }
            return n < 0 ? errno : EIO
        }
        return nil
    }

    /// `writeAll` of an array's bytes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// `writeAll` of a string's UTF-8 bytes.
    public static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// open(2), made again after EINTR (an open of a FIFO or a device can be interrupted
    /// while it waits): the descriptor, or -1 with errno set.
    public static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying { systemOpen(path, flags, mode) }
    }

    /// close(2), never made again: on Linux the descriptor is released even when close
    /// reports EINTR, and a second close could close a descriptor another thread has just
    /// opened. nil when it closed cleanly or was interrupted, else the errno (close is where
    /// NFS and some FUSE file systems report a failed write).
    @discardableResult
    public static func close(_ fd: Int32) -> Int32? {
        if systemClose(fd) == 0 { return nil }
        let failure = errno
        return failure == EINTR ? nil : failure
    }
}

// The C library's calls under names of their own, so `POSIX.read` and the others can call
// them without naming the platform's module at each site.

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}

@inline(__always)
private func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    #if canImport(Glibc)
    return Glibc.pread(fd, buffer, count, offset)
    #else
    return Darwin.pread(fd, buffer, count, offset)
    #endif
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}

@inline(__always)
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, flags, mode)
    #else
    return Darwin.open(path, flags, mode)
    #endif
}

@inline(__always)
private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
