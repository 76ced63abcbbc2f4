import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `--datastore` path must be before sqlite opens it: a regular file, or nothing yet
/// when the command may create it.
///
/// sqlite opens its file with a plain open(2), which on a FIFO waits for a writer that never
/// comes: `report --datastore FIFO` blocked forever. stat(2) opens nothing, so a FIFO, a
/// device, a socket or a folder (followed through a symbolic link too) is refused here without
/// blocking. The files sqlite keeps beside the database (`-wal`, `-shm`, `-journal`) are held
/// to the same rule, since sqlite opens them as well when they exist.
enum DatastoreFile {
    static let companions = ["-wal", "-shm", "-journal"]

    /// Throws unless `path` is a regular file, or missing and `mayCreate`.
    static func check(_ path: String, mayCreate: Bool) throws {
        guard try isRegularFile(path, what: "the datastore") else {
            guard mayCreate else { throw DatastoreError(.missing, "no datastore at this path") }
            return
        }
        for suffix in companions { _ = try isRegularFile(path + suffix, what: "the file sqlite keeps beside it (\(suffix))") }
    }

    /// True for a regular file, false when nothing is there; throws for anything else.
    private static func isRegularFile(_ path: String, what: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw DatastoreError(.notARegularFile, "cannot look at \(what) (\(String(cString: strerror(code))))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DatastoreError(.notARegularFile, "\(what) is \(kind(info.st_mode)), not a regular file: refused (nothing was opened)")
        }
        return true
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }
}
