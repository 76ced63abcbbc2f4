import FileInputs
import ScanCore
import GitHistory

/// What the commands need of a git repository besides scanning it (open it, list its work
/// tree, find its hooks folder), so the executable depends on the scanner alone and never
/// on the git module: git is still run only through GitHistory's isolated runner.
public struct Repository {
    let git: Git

    /// - Parameter trustForeignOwner: false keeps git's own ownership check (no
    ///   `safe.directory` override), for commands that write into the repository.
    /// - Throws: a git failure (git missing, not a repository); `Repository.describe` words it.
    public init(path: String, trustForeignOwner: Bool = true) throws {
        var options = Git.Options()
        options.trustForeignOwner = trustForeignOwner
        git = try Git(repository: path, options: options)
    }

    public var root: String { git.root }
    public var isBare: Bool { git.isBare }
    /// The folder git runs this repository's hooks from, honouring `core.hooksPath` (the
    /// repository's, the user's or the system's); asked through the same isolated runner.
    public func hooksFolder() throws -> String { try git.hooksFolder() }

    /// The `.git` (or bare repository) in or above `path`, if any: to tell "no repository"
    /// from "a repository git cannot open".
    public static func marker(above path: String) -> String? { Git.repositoryMarker(above: path) }

    /// The files of the work tree git knows of: tracked and untracked, less the ignored.
    public func workTreeFiles() throws -> [[UInt8]] {
        try git.output(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]).split(separator: 0).map(Array.init)
    }

    /// A git failure as one line for an error message; nil for errors of other kinds.
    public static func describe(_ error: Error) -> String? { (error as? GitError)?.description }
}

extension Scanner {
    /// Scans the files named by `relativePaths` (raw bytes, `/`-separated) under `root`, as
    /// `audit` does with the files git lists.
    /// The repository's own `.git` files that people and tools write (its config's remote
    /// URLs, reflogs, hooks: `FileWalker.gitDirectoryEntries`) are scanned with them.
    public func scan(relativePaths: [[UInt8]], under root: String) -> (result: ScanResult, notes: [ScanIssue]) {
        var listed = FileWalker.entries(root: root, relativePaths: relativePaths)
        let gitFiles = FileWalker.gitDirectoryEntries(root: root)
        listed.files += gitFiles.files
        listed.issues += gitFiles.issues
        listed.notes += gitFiles.notes
        return scan(listed)
    }
}

/// A settings or rules file, read bounded (a FIFO or a 2 GiB file by that name in a scanned
/// tree must not block or exhaust the run).
public enum SettingsFile {
    public struct ReadError: Error, Sendable {
        public var message: String
    }

    public static func contents(of path: String) throws(ReadError) -> [UInt8] {
        do { return try BoundedRead.contents(of: path) } catch { throw ReadError(message: error.message) }
    }
}
