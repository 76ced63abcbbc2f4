import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses a repository in which a file git opens is a FIFO, socket or device, before git
/// is started: git's `open` of a FIFO waits for a writer that never comes, and a repository
/// received as a tarball can carry one. Only `lstat`/`stat` and `readdir` (nothing is
/// opened), so the check itself cannot block. It names the file, which `ChildWatchdog`
/// (the bound on every git child, for the places not listed here) cannot.
///
/// The places: the files git reads to open a repository and list its history (`HEAD`,
/// `config`, `index`, `packed-refs`, `info/*`, `objects/info/*`), every loose ref and reflog
/// (`refs/**`, `logs/**`, read by `rev-list --all --reflog`), the packs, and the ignore,
/// attribute and submodule files at the top of the work tree. A socket elsewhere in `.git`
/// (git's own fsmonitor daemon makes one) is left alone.
enum SpecialFileCheck {
    /// Files directly in a git directory that git may open.
    static let gitDirFiles = [
        "HEAD", "config", "config.worktree", "index", "packed-refs", "commondir", "gitdir",
        "info/exclude", "info/attributes", "info/grafts", "info/sparse-checkout",
        "objects/info/alternates", "objects/info/http-alternates", "objects/info/commit-graph", "objects/info/packs",
    ]
    /// Folders of a git directory whose every file git may open.
    static let gitDirFolders = ["refs", "logs", "objects/pack", "objects/info/commit-graphs", "reftable"]
    /// Files at the top of a work tree that git reads.
    static let workTreeFiles = [".gitignore", ".gitattributes", ".gitmodules"]

    /// Entries looked at in a folder walk before the check stops looking (a repository with
    /// more loose refs than this is checked as far as that; the watchdog covers the rest).
    static let walkLimit = 1_000_000

    /// The first special file among the places above in the git directory `gitDir` (and the
    /// work tree `workTree`, when given), as a path; nil when there is none.
    static func firstSpecialFile(gitDir: String, workTree: String?) -> String? {
        for name in gitDirFiles where isSpecial(gitDir + "/" + name) { return gitDir + "/" + name }
        var budget = walkLimit
        for folder in gitDirFolders {
            if let found = firstSpecial(under: gitDir + "/" + folder, budget: &budget) { return found }
        }
        if let workTree {
            for name in workTreeFiles where isSpecial(workTree + "/" + name) { return workTree + "/" + name }
        }
        return nil
    }

    /// Whether `path` exists and is (or links to) something that is neither a regular file
    /// nor a folder.
    static func isSpecial(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else { return false }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &st) == 0 else { return false }
        }
        let mode = st.st_mode & S_IFMT
        return mode != S_IFREG && mode != S_IFDIR
    }

    private static func firstSpecial(under folder: String, budget: inout Int) -> String? {
        guard let dir = opendir(folder) else { return nil }
        var names: [(String, UInt8)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            names.append((name, entry.pointee.d_type))
        }
        closedir(dir)
        for (name, type) in names {
            budget -= 1
            if budget < 0 { return nil }
            let path = folder + "/" + name
            switch Int32(type) {
            case Int32(DT_REG): continue
            case Int32(DT_DIR):
                if let found = firstSpecial(under: path, budget: &budget) { return found }
            default:
                // A link, or a file system that does not give the type: ask.
                var st = stat()
                if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                    if let found = firstSpecial(under: path, budget: &budget) { return found }
                } else if isSpecial(path) {
                    return path
                }
            }
        }
        return nil
    }

    /// The error for a special file found at `path`.
    static func refusal(_ path: String) -> GitError {
        .unreadable(path: path, detail: "a FIFO, socket or device where git reads a file, which would make git wait forever; not scanned")
    }
}
