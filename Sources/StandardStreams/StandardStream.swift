import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// The process's standard output and standard error, written with write(2).
///
/// Foundation's `FileHandle.write(_:)` traps on any write error (EPIPE when the reader of a
/// pipe went away, ENOSPC on /dev/full, EBADF on a closed descriptor), which killed the
/// process before a requested baseline or `--output` file was written. Here a write error is
/// a value: the first failure on a stream is remembered, later writes to that stream are
/// skipped, and the executable decides what the failure means for its exit status.
///
/// Only executables use this; libraries never print.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Why a stream stopped taking bytes.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public let errno: Int32

        /// The reader closed the pipe (`keyshape scan | head -1`): it chose to stop reading,
        /// as with `grep | head`; not an error of ours.
        public var isBrokenPipe: Bool { errno == EPIPE }

        /// strerror's text, e.g. "No space left on device".
        public var description: String { String(cString: strerror(errno)) }
    }

    private static let state = StreamState()

    /// Writes all of `text` (POSIX.writeAll: EINTR retried, partial writes continued). Returns
    /// false when the stream failed, now or earlier (then nothing more is written to it).
    @discardableResult
    public func write(_ text: String) -> Bool {
        guard Self.state.failure(of: self) == nil else { return false }
        guard !text.isEmpty else { return true }
        if let failed = POSIX.writeAll(rawValue, text) {
            Self.state.record(Failure(errno: failed), for: self)
            return false
        }
        return true
    }

    /// The first write failure on this stream, if any.
    public var failure: Failure? { Self.state.failure(of: self) }

    public var isTerminal: Bool { isatty(rawValue) != 0 }

    /// Whether the process started with descriptor 0 closed (`0<&-`), as
    /// `reserveStandardDescriptors` found it: there is no standard input to read, as opposed
    /// to an empty one (`</dev/null`).
    public static var inputWasClosed: Bool { state.inputClosed }

    /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file.
    ///
    /// A process started with one of them closed (`2>&-`) would otherwise hand that number
    /// to the next file it opens, and a report meant for stdout or a message meant for
    /// stderr would land in a baseline or output file. A closed stdout gets /dev/null opened
    /// read-only, so writing the report fails with EBADF and is reported (fail closed); a
    /// closed stderr gets /dev/null for writing (its messages are lost, as the caller asked);
    /// a closed stdin gets /dev/null for reading, and `inputWasClosed` remembers it, so
    /// `scan -` with no standard input at all is an error, never a scan of an empty file.
    public static func reserveStandardDescriptors() {
        for (fd, flags) in [(Int32(0), O_RDONLY), (1, O_RDONLY), (2, O_WRONLY)] {
            guard fcntl(fd, F_GETFD) == -1 && currentErrno() == EBADF else { continue }
            if fd == 0 { state.recordInputClosed() }
            let opened = open("/dev/null", flags)
            if opened >= 0 && opened != fd {
                _ = dup2(opened, fd)
                _ = close(opened)
            }
        }
    }
}

/// errno is a thread-local macro in C; Swift reads it through this accessor.
private func currentErrno() -> Int32 { errno }

/// The first failure per stream; written by whichever thread hit it (the progress line
/// writes stderr from its own thread).
private final class StreamState: @unchecked Sendable {
    private var failures: [Int32: StandardStream.Failure] = [:]
    private var closedInput = false
    private let lock = NSLock()

    var inputClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closedInput
    }

    func recordInputClosed() {
        lock.lock()
        defer { lock.unlock() }
        closedInput = true
    }

    func failure(of stream: StandardStream) -> StandardStream.Failure? {
        lock.lock()
        defer { lock.unlock() }
        return failures[stream.rawValue]
    }

    func record(_ failure: StandardStream.Failure, for stream: StandardStream) {
        lock.lock()
        defer { lock.unlock() }
        if failures[stream.rawValue] == nil { failures[stream.rawValue] = failure }
    }
}
