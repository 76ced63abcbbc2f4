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

/// The folders of a listing made elsewhere (the files git lists), judged once each: a folder is
/// inside when its parent is and it is no link, or it is a link that resolves inside. One
/// lstat per folder and a realpath per link only: for 5,551 folders a realpath each took
/// 98-158 ms, an lstat each 25-27 ms (two loaded cores).
struct ListedFolders {
    let root: [UInt8]
    let boundary: Boundary
    private var known: [ArraySlice<UInt8>: Bool] = [:]

    init(root: String) {
        self.root = Array(root.utf8)
        boundary = Boundary(roots: [root])
    }

    /// `folder`: `/`-separated, relative to the root. A folder that cannot be examined counts
    /// as inside: opening the file below it then fails and says so.
    mutating func inside(_ folder: ArraySlice<UInt8>) -> Bool {
        if let answer = known[folder] { return answer }
        var answer = folder.lastIndex(of: 47).map { inside(folder[..<$0]) } ?? true
        if answer {
            let path = root + [47] + folder
            var st = stat()
            let os = path.map { CChar(bitPattern: $0) } + [0]
            if lstat(os, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK { answer = boundary.holds(folder: path) }
        }
        known[folder] = answer
        return answer
    }
}
