#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScanCore

/// Lists the regular files under the scan roots.
///
/// Symlinks are not followed unless asked, and then only to a target inside one of the folders
/// asked for (a link to `/proc/self/environ`, `/etc` or `../..` would read what nobody asked
/// to scan: noted, not followed); either way each real folder (device and inode)
/// is walked once and each real file listed once, so neither a loop nor a tree of links
/// that multiply the paths can make the walk unbounded; of a `.git` folder only the files
/// people and tools write are read (`FileWalker+GitDirectory.swift`), not its objects; FIFOs, sockets and devices are never opened (reading one could block forever)
/// and are noted instead.
public struct FileWalker {
    public struct Options: Sendable {
        public var followSymlinks = false
        /// Report a folder root's files as `root/relative` rather than relative to it, so
        /// several roots in one report (audit's build products) keep telling themselves apart.
        public var keepRootInPaths = false
        public init() {}
    }

    public struct Result: Sendable {
        public var files: [FileEntry] = []
        /// Paths that could not be listed or read: these make the scan incomplete.
        public var issues: [ScanIssue] = []
        /// Things passed over on purpose, worth saying but not failures.
        public var notes: [ScanIssue] = []

        public init(files: [FileEntry] = [], issues: [ScanIssue] = [], notes: [ScanIssue] = []) {
            self.files = files
            self.issues = issues
            self.notes = notes
        }
    }

    /// Entries for named files below `root` (as git lists them), reported relative to it.
    /// Names that are gone or not regular files are noted, not scanned. A name ending in `/`
    /// is a repository of its own inside the work tree (a vendored clone: git lists it so
    /// and no further): its folder is walked, `.git` files included.
    public static func entries(root: String, relativePaths: [[UInt8]]) -> Result {
        var result = Result()
        let rootBytes = Array(root.utf8)
        var folders = ListedFolders(root: root)
        for var rel in relativePaths {
            if rel.last == 47 {
                rel.removeLast()
                // Its own folders are not followed out of the tree (links are not followed),
                // and neither is the way to it.
                guard !rel.isEmpty, folders.inside(rel[...]) else { continue }
                var walk = Walk()
                let os: [CChar] = (rootBytes + [47] + rel).map { CChar(bitPattern: $0) }
                var st = stat()
                guard lstat(os + [0], &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
                var ancestors = [DevIno(st)]
                walk.folders.insert(DevIno(st))
                FileWalker().walkDirectory(os, relative: rel, ancestors: &ancestors, into: &walk)
                result.files += walk.result.files
                result.issues += walk.result.issues
                result.notes += walk.result.notes
                continue
            }
            let display = PathText.display(rel)
            let os: [CChar] = (rootBytes + [47] + rel).map { CChar(bitPattern: $0) } + [0]
            // A folder on the way that is a link out of the work tree (a crafted index or a
            // tarball can list `link/file` with `link -> /etc`): not read.
            if let slash = rel.lastIndex(of: 47), !folders.inside(rel[..<slash]) {
                result.notes.append(ScanIssue(path: display, message: "below a symbolic link that leads outside the scanned folders; not read"))
                continue
            }
            var st = stat()
            guard lstat(os, &st) == 0 else {
                result.notes.append(ScanIssue(path: display, message: "listed by git but not in the working tree"))
                continue
            }
            guard (st.st_mode & S_IFMT) == S_IFREG else { continue }   // symlinks and gitlinks
            result.files.append(FileEntry(osPath: os, pathBytes: rel, size: Int(st.st_size)))
        }
        return result
    }

    public let options: Options

    public init(options: Options = Options()) { self.options = options }

    /// - Parameter roots: paths as the user gave them.
    /// - Returns: files with display paths relative to their root directory; a file given
    ///   directly keeps the path as given.
    public func walk(_ roots: [String]) -> Result {
        var walk = Walk()
        if options.followSymlinks { walk.boundary = Boundary(roots: roots) }
        for root in roots {
            let display = FileWalker.normalize(root)
            var st = stat()
            guard stat(root, &st) == 0 else {
                let err = errno
                if lstat(root, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
                    walk.result.issues.append(ScanIssue(path: display, message: "broken symbolic link"))
                } else {
                    walk.result.issues.append(ScanIssue(path: display, message: FileWalker.describe(err)))
                }
                continue
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                guard walk.folders.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                var ancestors: [DevIno] = [DevIno(st)]
                let prefix = options.keepRootInPaths && display != "." ? Array(display.utf8) : []
                walkDirectory(Array(root.utf8CString.dropLast()), relative: prefix, ancestors: &ancestors, into: &walk)
            case S_IFREG:
                guard walk.files.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                walk.result.files.append(FileEntry(osPath: Array(root.utf8CString), displayPath: display, size: Int(st.st_size)))
            default:
                walk.result.issues.append(ScanIssue(path: display, message: "not a regular file or directory"))
            }
        }
        if walk.reachedAgain > 0 {
            walk.result.notes.append(ScanIssue(path: "", message: "\(walk.reachedAgain) folders or files reached again by another path (links); each was scanned once"))
        }
        return walk.result
    }

    struct DevIno: Hashable {
        var dev: UInt64
        var ino: UInt64
        init(_ st: stat) { dev = UInt64(st.st_dev); ino = UInt64(st.st_ino) }
    }

    /// One walk's state. Every real folder is walked once and every real file listed once,
    /// whatever paths lead to them: a tree whose folders each link twice to the next has
    /// 2^depth paths, and walking them all was unbounded work under `followSymlinks`.
    struct Walk {
        var result = Result()
        var folders: Set<DevIno> = []
        /// Files that another path may reach again: all of them when links are followed,
        /// else only those with more than one hard link (so the set stays small).
        var files: Set<DevIno> = []
        var reachedAgain = 0
        /// Where a followed link may lead (set when links are followed).
        var boundary = Boundary(roots: [])
    }

    /// A folder's entries but `.` and `..`, sorted by their bytes (walks are reproducible);
    /// nil when it cannot be opened (`errno` says why).
    static func sortedNames(_ dirPath: [CChar]) -> [[CChar]]? {
        guard let dir = opendir(dirPath + [0]) else { return nil }
        var names: [[CChar]] = []
        while let entry = readdir(dir) {
            let name: [CChar] = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            }
            if name == [46] || name == [46, 46] { continue }
            names.append(name)
        }
        closedir(dir)
        names.sort { $0.lexicographicallyPrecedes($1) }
        return names
    }

    func walkDirectory(_ dirPath: [CChar], relative: [UInt8], ancestors: inout [DevIno], into walk: inout Walk) {
        guard let names = FileWalker.sortedNames(dirPath) else {
            walk.result.issues.append(ScanIssue(path: relative.isEmpty ? "." : PathText.display(relative), message: FileWalker.describe(errno)))
            return
        }

        for name in names {
            var childPath = dirPath + [47] + name
            let nameBytes = name.map { UInt8(bitPattern: $0) }
            let childRelative = relative.isEmpty ? nameBytes : relative + [47] + nameBytes
            var st = stat()
            guard lstat(childPath + [0], &st) == 0 else {
                walk.result.issues.append(ScanIssue(path: PathText.display(childRelative), message: FileWalker.describe(errno)))
                continue
            }
            var mode = st.st_mode & S_IFMT
            if mode == S_IFLNK {
                guard options.followSymlinks else { continue }
                guard stat(childPath + [0], &st) == 0 else {
                    walk.result.notes.append(ScanIssue(path: PathText.display(childRelative), message: "broken symbolic link skipped"))
                    continue
                }
                guard let target = Boundary.resolve(childPath + [0]), walk.boundary.holds(resolved: target) else {
                    walk.result.notes.append(ScanIssue(path: PathText.display(childRelative), message: "symbolic link leads outside the scanned folders; not followed"))
                    continue
                }
                // Opened (or walked) by the path checked, which holds no link, so what is read
                // is what was found inside.
                childPath = target.map { CChar(bitPattern: $0) }
                mode = st.st_mode & S_IFMT
            }
            switch mode {
            case S_IFDIR where name == [46, 103, 105, 116]:                // .git: its credential-bearing files
                guard walk.folders.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                walkGitDirectory(childPath, relative: childRelative, into: &walk)
            case S_IFDIR:
                let id = DevIno(st)
                if ancestors.contains(id) {
                    walk.result.notes.append(ScanIssue(path: PathText.display(childRelative), message: "symbolic link loop skipped"))
                    continue
                }
                guard walk.folders.insert(id).inserted else { walk.reachedAgain += 1; continue }
                ancestors.append(id)
                walkDirectory(childPath, relative: childRelative, ancestors: &ancestors, into: &walk)
                ancestors.removeLast()
            case S_IFREG:
                if options.followSymlinks || st.st_nlink > 1 {
                    guard walk.files.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                }
                walk.result.files.append(FileEntry(osPath: childPath + [0], pathBytes: childRelative, size: Int(st.st_size)))
            default:
                walk.result.notes.append(ScanIssue(path: PathText.display(childRelative), message: "special file (FIFO, socket or device) skipped"))
            }
        }
    }

    static func normalize(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p.isEmpty ? "." : p
    }

    public static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or directory"
        case EACCES, EPERM: return "permission denied"
        case ENOTDIR: return "not a directory"
        case ELOOP: return "too many levels of symbolic links"
        case EISDIR: return "is a directory"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
