import Foundation
import FileInputs
import ScanCore
import POSIXIO

/// `keyshape scan -`: standard input (an input, so it lives with the scanner, not in the CLI), read into an anonymous in-memory file (memfd) so it
/// is scanned exactly as a file on disk would be: chunked reads, the binary sniff, Mach-O
/// and ELF maps. Nothing of it is written to a file system. Reading stops one byte past
/// `--max-file-size`, so a larger input is an error entry (exit 2), never an unbounded read.
public final class StandardInput {
    /// The listing to scan: the one entry, or the error that kept it from being read.
    public private(set) var listing = FileWalker.Result()
    private let fd: Int32

    /// `closed`: the process started without a descriptor 0 (`0<&-`; the executable keeps
    /// /dev/null there so no file takes its number). Nothing was given to scan, which is an
    /// error entry, unlike an empty standard input (`</dev/null`), which is an empty file.
    /// Standard input is copied into memory (a memfd) before it is scanned, so it keeps a
    /// bound even when files have none: 4 GiB, past which it is an error entry (exit 2).
    public static let defaultLimit = 4 << 30

    public init(name: String, maxSize: Int, closed: Bool = false) {
        guard !closed else {
            fd = -1
            listing.issues.append(ScanIssue(path: name, message: "standard input is closed; nothing was read (give the input on standard input, or </dev/null for none)"))
            return
        }
        let fd = StandardInput.anonymousFile()
        self.fd = fd
        guard fd >= 0 else {
            listing.issues.append(ScanIssue(path: name, message: "standard input not scanned: cannot make an in-memory file (\(FileWalker.describe(errno)))"))
            return
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { POSIX.read(0, $0.baseAddress!, $0.count) }
            if n < 0 {
                listing.issues.append(ScanIssue(path: name, message: "standard input: \(FileWalker.describe(errno))"))
                return
            }
            if n == 0 { break }
            total += n
            if total > maxSize {
                listing.issues.append(ScanIssue(path: name, message: "standard input is over the \(maxSize)-byte limit; not scanned (raise --max-file-size)"))
                return
            }
            if let failure = buffer.withUnsafeBytes({ POSIX.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
                listing.issues.append(ScanIssue(path: name, message: "standard input not scanned: \(FileWalker.describe(failure))"))
                return
            }
        }
        // The file scanner opens entries by path; this names the memfd, at offset 0 again.
        listing.files.append(FileEntry(osPath: Array("/proc/self/fd/\(fd)".utf8CString), displayPath: name, size: total))
    }

    deinit { if fd >= 0 { close(fd) } }

    /// memfd_create(2), looked up at run time (Glibc's module does not export it); -1 with
    /// errno ENOSYS where it does not exist.
    private static func anonymousFile() -> Int32 {
        typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "memfd_create") else { errno = ENOSYS; return -1 }
        let create = unsafeBitCast(symbol, to: MemfdCreate.self)
        return create("keyshape-stdin", 1 /* MFD_CLOEXEC */)
    }
}
