import Foundation

/// Where a run's report paths are relative to, so SARIF can name each artifact relative to
/// the root of the git work tree that holds it (`%SRCROOT%`): `keyshape scan src` inside a
/// repository reports `src/app.py` there, as code scanning needs to open the file.
///
/// The work tree is found by looking for `.git` (a folder, or the file a linked worktree or
/// submodule has) upwards from the scanned path, in Swift: running git to ask would run it
/// in every scanned folder. Outside a work tree, URIs are relative to the scanned root (the
/// folder, or a file argument's folder, or the current folder for several arguments).
public struct ArtifactRoots: Sendable {
    /// Report paths starting with `prefix` (or any, for nil) are relative to `directory`
    /// (absolute, symbolic links resolved); the first that matches applies.
    public var bases: [(prefix: String?, directory: String)]
    /// What `%SRCROOT%` stands for.
    public var sourceRoot: String

    /// `scan PATH...`: one folder's files are reported relative to it; files and several
    /// arguments as given (relative to the current folder).
    public static func scan(_ roots: [String]) -> ArtifactRoots {
        let cwd = resolved(FileManager.default.currentDirectoryPath)
        let first = roots.first ?? "."
        var isDirectory: ObjCBool = false
        let exists = first != "-" && FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory)
        let base = roots.count == 1 && exists && isDirectory.boolValue ? resolved(absolute(first, in: cwd)) : cwd
        let scanned = exists ? (isDirectory.boolValue ? resolved(absolute(first, in: cwd)) : parent(absolute(first, in: cwd))) : cwd
        let root = workTree(above: scanned) ?? (roots.count == 1 ? scanned : cwd)
        return ArtifactRoots(bases: [(nil, base)], sourceRoot: root)
    }

    /// history and staged: paths are relative to the repository's root.
    public static func repository(_ repo: String) -> ArtifactRoots {
        let dir = resolved(absolute(repo, in: resolved(FileManager.default.currentDirectoryPath)))
        let root = workTree(above: dir) ?? dir
        return ArtifactRoots(bases: [(nil, root)], sourceRoot: root)
    }

    /// audit: sources and history relative to the repository's root; each build product's
    /// files start with the product path as given, relative to the current folder.
    public static func audit(repository repo: String, products: [String]) -> ArtifactRoots {
        let cwd = resolved(FileManager.default.currentDirectoryPath)
        var roots = repository(repo)
        roots.bases = products.map { (prefix: shownPrefix($0), directory: cwd) } + roots.bases
        return roots
    }

    /// The artifact's path relative to `sourceRoot`, `/`-separated; `..` segments only for
    /// a file outside it (an argument elsewhere than the work tree), never an absolute path.
    public func artifactPath(_ path: String) -> String {
        let base = bases.first { b in b.prefix.map { path == $0 || path.hasPrefix($0 + "/") } ?? true }?.directory ?? sourceRoot
        let full = ArtifactRoots.lexical(ArtifactRoots.absolute(path, in: base))
        return ArtifactRoots.relative(full, to: sourceRoot)
    }

    // MARK: paths

    static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// Symbolic links resolved where the path exists (so a work tree reached through a link
    /// and the files under it agree), else the lexical form.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return lexical(path) }
        defer { free(real) }
        return String(cString: real)
    }

    /// A file's folder, resolved; the file's own name is kept as given.
    static func parent(_ file: String) -> String {
        resolved((lexical(file) as NSString).deletingLastPathComponent)
    }

    /// `.` and `..` segments and doubled slashes removed, without touching the file system.
    static func lexical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func relative(_ path: String, to root: String) -> String {
        let p = path.split(separator: "/"), r = root.split(separator: "/")
        var common = 0
        while common < p.count && common < r.count && p[common] == r[common] { common += 1 }
        let up = Array(repeating: Substring(".."), count: r.count - common)
        let rest = up + p[common...]
        return rest.isEmpty ? "." : rest.joined(separator: "/")
    }

    /// The folder holding `.git`, from `directory` upwards.
    static func workTree(above directory: String) -> String? {
        var dir = directory
        while true {
            var st = stat()
            if stat(dir == "/" ? "/.git" : dir + "/.git", &st) == 0 { return dir }
            if dir == "/" || dir.isEmpty { return nil }
            dir = (dir as NSString).deletingLastPathComponent
        }
    }

    /// How the file walker shows a root it keeps in paths (`./a/` as `a`).
    static func shownPrefix(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p.isEmpty ? "." : p
    }
}
