#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders a scan was asked for, resolved (realpath): a symbolic link is followed only
/// to a target inside one of them. The check is on the resolved path, so `..`, absolute
/// targets, chains of links and `/proc/self/...` are all judged by where they end.
struct Boundary {
    /// Resolved folder roots, without a trailing `/` (except `/` itself).
    let roots: [[UInt8]]

    /// Roots that are not folders (or cannot be resolved) bound nothing.
    init(roots: [String]) {
        self.roots = roots.compactMap { root in
            var st = stat()
            guard stat(root, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
            return Boundary.resolve(Array(root.utf8CString))
        }
    }

    /// The path with every link, `.` and `..` resolved; nil when it cannot be (gone, a loop,
    /// a component that is not a folder).
    static func resolve(_ path: [CChar]) -> [UInt8]? {
        guard let resolved = path.withUnsafeBufferPointer({ realpath($0.baseAddress!, nil) }) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
    }

    func holds(resolved path: [UInt8]) -> Bool {
        roots.contains { root in
            root == [47] || path == root || (path.count > root.count && path.starts(with: root) && path[root.count] == 47)
        }
    }

    /// Whether a folder (given unresolved, without NUL) resolves inside a root. A folder that
    /// cannot be resolved is let through: opening the file under it then fails and says so.
    func holds(folder: [UInt8]) -> Bool {
        guard !roots.isEmpty, let resolved = Boundary.resolve(folder.map { CChar(bitPattern: $0) } + [0]) else { return true }
        return holds(resolved: resolved)
    }
}
