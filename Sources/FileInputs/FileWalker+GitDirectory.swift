#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScanCore

/// The files of a `.git` folder that hold what people and tools wrote, read as inputs like
/// any other file (never executed, never handed to git): a token in a remote URL
/// (`https://user:TOKEN@host/…` in `config`), the URL a fetch or clone recorded (`FETCH_HEAD`,
/// and the reflog's "clone: from URL" line), a legacy remote (`remotes/`, `branches/`),
/// messages being written (`COMMIT_EDITMSG`, …), hooks someone wrote, and the same in the
/// git directories of submodules (`modules/NAME/`, names may hold slashes) and worktrees
/// (`worktrees/NAME/`). Not the object store, the index or packs: their bytes are compressed
/// or binary and `history` reads what they hold.
///
/// Only a real `.git` folder inside the tree is read: a `.git` file (a `gitdir:` link to a
/// folder elsewhere) is scanned as the small file it is and not followed, so nothing outside
/// the tree asked for is read.
extension FileWalker {
    /// Files directly in a git directory that are read.
    static let gitDirectoryFiles: Set<String> = [
        "config", "config.worktree", "FETCH_HEAD", "COMMIT_EDITMSG", "MERGE_MSG", "SQUASH_MSG", "TAG_EDITMSG",
    ]
    /// Folders of a git directory read whole (every regular file below them).
    static let gitDirectoryFolders: Set<String> = ["logs", "hooks", "remotes", "branches"]
    /// Folders whose subfolders are git directories of their own (submodules, worktrees).
    static let nestedGitDirectories: Set<String> = ["modules", "worktrees"]
    static let sampleSuffix = Array(".sample".utf8)
    /// Folders of a git directory never read (object store and git's caches).
    static let gitInternalFolders: Set<String> = ["objects", "refs", "info", "lfs", "rr-cache", "reftable", "svn", "sequencer"]

    /// Lists the files above of the git directory at `dirPath` (reported as `relative`).
    /// - Parameter submoduleNames: the folder may also hold further folders of a submodule's
    ///   name (`modules/a/b/` for a submodule named `a/b`).
    func walkGitDirectory(_ dirPath: [CChar], relative: [UInt8], submoduleNames: Bool = false, into walk: inout Walk) {
        guard let names = FileWalker.sortedNames(dirPath) else {
            walk.result.issues.append(ScanIssue(path: PathText.display(relative), message: FileWalker.describe(errno)))
            return
        }
        for name in names {
            let text = String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let childPath = dirPath + [47] + name
            let childRelative = relative + [47] + name.map { UInt8(bitPattern: $0) }
            var st = stat()
            // Never followed: a link in a git directory could point anywhere.
            guard lstat(childPath + [0], &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG where FileWalker.gitDirectoryFiles.contains(text):
                if st.st_nlink > 1 { guard walk.files.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue } }
                walk.result.files.append(FileEntry(osPath: childPath + [0], pathBytes: childRelative, size: Int(st.st_size)))
            case S_IFDIR where FileWalker.gitDirectoryFolders.contains(text):
                guard walk.folders.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                var ancestors = [DevIno(st)]
                let before = walk.result.files.count
                walkDirectory(childPath, relative: childRelative, ancestors: &ancestors, into: &walk)
                // git's own hook templates (`*.sample`, the same in every repository, never run).
                if text == "hooks" {
                    let added = walk.result.files[before...].filter { !$0.pathBytes.suffix(FileWalker.sampleSuffix.count).elementsEqual(FileWalker.sampleSuffix) }
                    walk.result.files.removeSubrange(before...)
                    walk.result.files += added
                }
            case S_IFDIR where FileWalker.nestedGitDirectories.contains(text):
                walkNestedGitDirectories(childPath, relative: childRelative, submoduleNames: text == "modules", into: &walk)
            case S_IFDIR where submoduleNames && !FileWalker.gitInternalFolders.contains(text):
                guard walk.folders.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
                walkGitDirectory(childPath, relative: childRelative, submoduleNames: true, into: &walk)
            case S_IFREG, S_IFDIR, S_IFLNK:
                continue
            default:
                if FileWalker.gitDirectoryFiles.contains(text) {
                    walk.result.notes.append(ScanIssue(path: PathText.display(childRelative), message: "special file (FIFO, socket or device) skipped"))
                }
            }
        }
    }

    /// Each folder in `modules/` or `worktrees/`: a git directory.
    private func walkNestedGitDirectories(_ dirPath: [CChar], relative: [UInt8], submoduleNames: Bool, into walk: inout Walk) {
        guard let names = FileWalker.sortedNames(dirPath) else { return }
        for name in names {
            let childPath = dirPath + [47] + name
            var st = stat()
            guard lstat(childPath + [0], &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
            guard walk.folders.insert(DevIno(st)).inserted else { walk.reachedAgain += 1; continue }
            walkGitDirectory(childPath, relative: relative + [47] + name.map { UInt8(bitPattern: $0) }, submoduleNames: submoduleNames, into: &walk)
        }
    }

    /// The git directory files of `root/.git` (when it is a real folder), reported relative
    /// to `root`: `audit` lists the work tree through git, which never names them.
    public static func gitDirectoryEntries(root: String) -> Result {
        var walk = Walk()
        let gitPath = Array(root.utf8CString.dropLast()) + [47] + Array(".git".utf8CString.dropLast())
        var st = stat()
        guard lstat(gitPath + [0], &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return walk.result }
        walk.folders.insert(DevIno(st))
        FileWalker().walkGitDirectory(gitPath, relative: Array(".git".utf8), into: &walk)
        return walk.result
    }
}
