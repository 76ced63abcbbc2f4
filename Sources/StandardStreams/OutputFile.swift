import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// Writes a whole file (a report, a baseline) with open(2) and write(2), so a failure comes
/// back as errno and is printed with strerror's text. Foundation's `Data.write(to:)` reported
/// some of these as bare Cocoa codes ("cannot write (error 4)" for a missing folder).
public enum OutputFile {
    /// Creates or truncates `path` (mode 0644 before the umask) and writes `text` into it.
    /// Returns the failure, or nil when every byte was written and the file closed cleanly.
    public static func write(_ text: String, to path: String) -> StandardStream.Failure? {
        let fd = POSIX.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return StandardStream.Failure(errno: errno) }
        let failure = writeAll(text, to: fd)
        // close(2) is where NFS and some FUSE file systems report a failed write.
        let closing = POSIX.close(fd)
        return failure ?? closing.map { StandardStream.Failure(errno: $0) }
    }

    /// Writes every byte of `text` to `fd` (POSIX.writeAll: partial writes continued, EINTR
    /// retried, a write of 0 bytes taken as EIO); the failure, or nil.
    static func writeAll(_ text: String, to fd: Int32) -> StandardStream.Failure? {
        POSIX.writeAll(fd, text).map { StandardStream.Failure(errno: $0) }
    }
}

/// A file opened once for appending (a log), created with mode 0600 when missing; each
/// `append` writes its whole text with write(2). The first failure is kept and later
/// appends are skipped, so a full disk never traps and never interleaves half lines.
public final class AppendedFile: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    public private(set) var failure: StandardStream.Failure?

    public init?(path: String) {
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    public func append(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return }
        failure = OutputFile.writeAll(text, to: fd)
    }
}
