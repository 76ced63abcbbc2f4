#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// Reads a small file whole (a config or rules file) without trusting it to be small or
/// to be a file: a FIFO, socket or device is refused before it is opened (opening a FIFO
/// blocks until a writer comes), and nothing past `limit` bytes is ever read, whatever the
/// file's size says.
public enum BoundedRead {
    public struct Failure: Error, Sendable, Equatable {
        /// Numbers and fixed words only: never the file's content.
        public let message: String
    }

    /// Config and rules files are refused above this. The whole builtin rule pack is about
    /// 0.5 MB and gitleaks' own config about 0.1 MB; 16 MiB leaves 30 times that, while a
    /// hostile 2 GiB file costs nothing (read whole, it took 6 GB of memory).
    public static let configLimit = 16 << 20

    /// The bytes of the regular file at `path` (symbolic links followed).
    public static func contents(of path: String, limit: Int = configLimit) throws(Failure) -> [UInt8] {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Failure(message: FileWalker.describe(errno)) }
        try check(st, limit: limit)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(message: FileWalker.describe(errno)) }
        defer { close(fd) }
        // The name may have been swapped since stat: ask the descriptor itself.
        guard fstat(fd, &st) == 0 else { throw Failure(message: FileWalker.describe(errno)) }
        try check(st, limit: limit)
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                // The file grew past what fstat said; go on, but never past the limit.
                if filled > limit { throw tooLarge(limit: limit) }
                bytes += [UInt8](repeating: 0, count: min(max(filled, 4096), limit + 1 - filled))
            }
            let want = bytes.count - filled
            let n = bytes.withUnsafeMutableBytes { POSIX.read(fd, $0.baseAddress! + filled, want) }
            if n < 0 { throw Failure(message: FileWalker.describe(errno)) }
            if n == 0 { break }
            filled += n
        }
        if filled > limit { throw tooLarge(limit: limit) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    private static func check(_ st: stat, limit: Int) throws(Failure) {
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw Failure(message: "not a regular file") }
        if Int(st.st_size) > limit {
            throw Failure(message: "file is \(st.st_size) bytes, over the \(limit)-byte limit for config and rules files")
        }
    }

    private static func tooLarge(limit: Int) -> Failure {
        Failure(message: "file is over the \(limit)-byte limit for config and rules files")
    }
}
