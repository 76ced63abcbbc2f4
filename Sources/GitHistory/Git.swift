import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the git binary on one repository, isolated from everything in the repository's and
/// the user's configuration that could run a program:
///
/// - no system or global config (`GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`),
///   and every `GIT_*` variable of the caller dropped (`GIT_DIR`, `GIT_WORK_TREE`,
///   `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_PARAMETERS`, …) except the few that locate objects in
///   a hook (`GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`, `GIT_QUARANTINE_PATH`)
///   and, for staged scans, `GIT_INDEX_FILE`;
/// - command-line config, which outranks the repository's: `core.fsmonitor=false`,
///   `core.hooksPath=/dev/null` (no hook can exist below it), `core.pager=cat`,
///   `diff.external=`, `core.attributesFile=/dev/null`, `protocol.allow=never`,
///   `diff.submodule=short` (a submodule diff would start a `git diff` inside the submodule,
///   whose own config can name a diff driver), `gc.auto=0`, `log.showSignature=false`,
///   `color.ui=false`;
/// - no fetching, ever: `GIT_ALLOW_PROTOCOL=none` (an allow-list naming no transport: it
///   outranks a repository's `protocol.<name>.allow=always`, which outranks the
///   command-line `protocol.allow=never`), and `GIT_NO_LAZY_FETCH=1` (git 2.45+ does not
///   even try to fetch a partial clone's missing objects from its promisor remote);
/// - history as the objects say: `GIT_GRAFT_FILE=/dev/null` (no `info/grafts`),
///   `core.commitGraph=false` (git takes a commit's parents from a commit-graph file without
///   checking them against the commit, so a forged one hides commits too; measured on an
///   85,000-commit history with a graph: rev-list 2.2 s instead of 0.2 s, beside a diff-tree
///   that reads every commit object anyway and takes far longer), and
///   `GIT_SHALLOW_FILE` pointing at a file keyshape wrote with only the repository's
///   shallow entries whose parents really are missing (see `ShallowBoundary`);
/// - `--no-pager`, `GIT_PAGER=cat`, `GIT_TERMINAL_PROMPT=0`, `GIT_OPTIONAL_LOCKS=0` (no index
///   refresh, so no `post-index-change` hook), `GIT_NO_REPLACE_OBJECTS=1` (the objects as
///   stored, not as `refs/replace` would show them), `LC_ALL=C`, stdin `/dev/null`;
/// - diff commands get `--no-ext-diff --no-textconv`; no command is given `--filters`.
///
/// With that isolation nothing the repository configures is executed, so keyshape reads
/// repositories owned by another user too (`safe.directory=*` for the read-only commands
/// it runs); see `trustForeignOwner`.
public final class Git: @unchecked Sendable {
    /// Path of the git executable.
    public let executable: String
    /// The work tree's top folder, or the git directory of a bare repository.
    public let root: String
    public let gitDir: String
    public let isBare: Bool
    /// Whether the repository really is shallow: some commit's parents are missing.
    public private(set) var isShallow = false
    /// Commits the repository's shallow file lists although their parents are present (a
    /// forged boundary would hide the commits behind it); ignored.
    public private(set) var ignoredShallowEntries = 0
    /// 20 (SHA-1) or 32 (SHA-256).
    public let oidByteCount: Int
    private(set) var environment: [String]
    let configArgs: [String]
    /// Seconds a git child keyshape waits for may go without output and CPU time before it
    /// is killed as stalled (`ChildWatchdog`): `Options.stallSeconds`.
    public let stallLimit: Double
    /// The shallow file keyshape wrote for git, removed with this value.
    private var ownShallowFile: String?

    public struct Options: Sendable {
        /// Pass `GIT_INDEX_FILE` through (a pre-commit hook for `git commit -a` or
        /// `git commit PATH` stages into a temporary index and names it there).
        public var useCallerIndexFile = false
        /// Read repositories owned by another user (git's safe.directory check). Safe for
        /// the read-only, isolated commands this type runs; off for writes.
        public var trustForeignOwner = true
        /// The environment to start from (tests replace it).
        public var baseEnvironment: [String: String] = ProcessInfo.processInfo.environment
        /// The stall limit of every git child (`ChildWatchdog`); nil: `KEYSHAPE_GIT_STALL_SECONDS`
        /// from `baseEnvironment`, else 60 s.
        public var stallSeconds: Double?

        public init() {}
    }

    /// Finds git, resolves `path` to its repository, and reads what kind it is.
    public init(repository path: String, options: Options = Options()) throws {
        executable = try Git.locate(path: options.baseEnvironment["PATH"])
        // The repository's shallow file is not read by git until keyshape has checked it.
        environment = Git.isolatedEnvironment(options.baseEnvironment, passIndexFile: options.useCallerIndexFile)
            + ["GIT_SHALLOW_FILE=/dev/null"]
        configArgs = Git.isolatingConfig(trustForeignOwner: options.trustForeignOwner)
        stallLimit = options.stallSeconds ?? ChildWatchdog.limit(from: options.baseEnvironment)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw GitError.notARepository(path: path, detail: "no such folder")
        }
        // Before git opens anything: a FIFO where git reads a file would block it for good.
        let checked = try Git.refuseSpecialFiles(above: path)
        // One process: `--show-toplevel` fails in a bare repository after the rest is printed.
        let probe = try Git.capture(executable: executable, arguments: ["--no-pager", "-C", path] + configArgs
                                    + ["rev-parse", "--is-bare-repository", "--absolute-git-dir",
                                       "--show-object-format", "--git-path", "shallow", "--show-toplevel"],
                                    environment: environment, command: "git rev-parse", stallLimit: stallLimit)
        let lines = String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == "true" || lines[0] == "false" else {
            throw GitError.notARepository(path: path, detail: Git.notARepositoryDetail(probe))
        }
        gitDir = lines[1]
        oidByteCount = lines[2] == "sha256" ? 32 : 20
        let shallowPath = lines[3].hasPrefix("/") ? lines[3] : path + "/" + lines[3]
        if lines.count >= 5, !lines[4].isEmpty, probe.status == 0 {
            isBare = false
            root = lines[4]
        } else if lines[0] == "true" || GitError.says(probe.stderr, "must be run in a work tree") {
            // A bare repository, or the git directory of one with a work tree: no work tree to use.
            isBare = true
            root = gitDir
        } else {
            throw GitError.notARepository(path: path, detail: Git.notARepositoryDetail(probe))
        }
        if gitDir != checked, let found = SpecialFileCheck.firstSpecialFile(gitDir: gitDir, workTree: isBare ? nil : root) {
            throw SpecialFileCheck.refusal(found)
        }
        try adoptShallowBoundary(ShallowBoundary(git: self, file: shallowPath, repository: path))
    }

    /// Checks the git directory that git would find for `path` (a `.git` folder in it or
    /// above, or a bare repository) for special files (`SpecialFileCheck`), without starting
    /// git; a `.git` file's `gitdir:` link is not followed here (the directory git finds
    /// through it is checked once git named it). The folder checked, if any.
    static func refuseSpecialFiles(above path: String) throws -> String? {
        guard let marker = Git.repositoryMarker(above: path) else { return nil }
        var st = stat()
        guard lstat(marker, &st) == 0 else { return nil }
        let mode = st.st_mode & S_IFMT
        if mode == S_IFREG || mode == S_IFLNK { return nil }
        guard mode == S_IFDIR else { throw SpecialFileCheck.refusal(marker) }
        let workTree = marker.hasSuffix("/.git") ? String(marker.dropLast(5)) : nil
        if let found = SpecialFileCheck.firstSpecialFile(gitDir: marker, workTree: workTree) { throw SpecialFileCheck.refusal(found) }
        return URL(fileURLWithPath: marker).standardizedFileURL.path
    }

    deinit {
        if let ownShallowFile { unlink(ownShallowFile) }
    }

    /// Points git at a shallow file holding only the genuine entries (none: /dev/null).
    private func adoptShallowBoundary(_ boundary: ShallowBoundary) throws {
        isShallow = !boundary.genuine.isEmpty
        ignoredShallowEntries = boundary.ignored
        guard isShallow else { return }
        let file = try boundary.writeGenuine()
        ownShallowFile = file
        environment = environment.filter { !$0.hasPrefix("GIT_SHALLOW_FILE=") } + ["GIT_SHALLOW_FILE=" + file]
    }

    /// keyshape's words for why `rev-parse` found no repository: never git's (they quote a
    /// `.git` file's `gitdir:` line, which the repository chose).
    static func notARepositoryDetail(_ probe: Captured) -> String {
        let reason = probe.reason
        return reason.isEmpty ? "git rev-parse failed (exit \(probe.status))" : reason
    }

    /// `git` on PATH (or nil PATH: the usual places).
    static func locate(path: String?) throws -> String {
        let dirs = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for dir in dirs where !dir.isEmpty {
            let candidate = dir + "/git"
            var st = stat()
            if stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        throw GitError.gitNotFound
    }

    static let passedThrough: Set<String> = ["GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH"]

    static func isolatedEnvironment(_ base: [String: String], passIndexFile: Bool) -> [String] {
        var env: [String: String] = [:]
        for (k, v) in base {
            if k.hasPrefix("GIT_") {
                if passedThrough.contains(k) { env[k] = v }
                if k == "GIT_INDEX_FILE" && passIndexFile {
                    env[k] = v.hasPrefix("/") ? v : FileManager.default.currentDirectoryPath + "/" + v
                }
                continue
            }
            if ["PAGER", "LESS", "EDITOR", "VISUAL", "SSH_ASKPASS", "LANG", "LANGUAGE"].contains(k) || k.hasPrefix("LC_") { continue }
            env[k] = v
        }
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_PAGER"] = "cat"
        env["PAGER"] = "cat"
        env["GIT_OPTIONAL_LOCKS"] = "0"
        env["GIT_NO_REPLACE_OBJECTS"] = "1"
        env["GIT_NO_LAZY_FETCH"] = "1"
        env["GIT_ALLOW_PROTOCOL"] = "none"
        env["GIT_GRAFT_FILE"] = "/dev/null"
        env["GIT_ASKPASS"] = "/bin/false"
        // glibc only: keep freed memory instead of returning it to the kernel after every
        // object, which made a cat-file streaming every blob spend a tenth of its time
        // faulting in and clearing fresh pages; and back the heap with transparent huge
        // pages where the kernel offers them on request (`hugetlb=1`, glibc 2.35+; older
        // versions ignore it), one fault per 2 MiB instead of per 4 KiB. A caller's own
        // setting is left alone.
        if env["GLIBC_TUNABLES"] == nil {
            env["GLIBC_TUNABLES"] = Git.mallocTunables
        }
        env["LC_ALL"] = "C"
        return env.map { "\($0.key)=\($0.value)" }.sorted()
    }

    static let mallocTunables = "glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.hugetlb=1"

    static func isolatingConfig(trustForeignOwner: Bool) -> [String] {
        var settings = [
            "core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "diff.external=",
            "core.attributesFile=/dev/null", "protocol.allow=never", "diff.submodule=short", "submodule.recurse=false",
            "core.commitGraph=false", "gc.auto=0", "maintenance.auto=false",
            "log.showSignature=false", "color.ui=false", "core.untrackedCache=false", "core.quotePath=true",
        ]
        if trustForeignOwner { settings.append("safe.directory=*") }
        return settings.flatMap { ["-c", $0] }
    }

    /// The full argument list for a git subcommand.
    func arguments(_ args: [String]) -> [String] {
        ["--no-pager", "-C", root] + configArgs + args
    }

    static func commandName(_ args: [String]) -> String {
        "git " + args.prefix(while: { !$0.hasPrefix("-") || $0 == "--all" || $0.hasPrefix("--batch") || $0 == "--cached" })
            .prefix(3).joined(separator: " ")
    }

    /// Starts `git args…`.
    /// - Parameter config: `name=value` settings for this command only (after the isolating
    ///   ones), such as a reader's cache size.
    /// - Parameter dataLimit: a cap on git's heap (`Subprocess.limitData`), for commands
    ///   whose memory grows with what the repository lists.
    func spawn(_ args: [String], stdin: Subprocess.Input = .null, stdout: Subprocess.Output = .pipe,
               config: [String] = [], dataLimit: Int? = nil) throws -> Subprocess {
        try Subprocess(executable: executable, arguments: arguments(config.flatMap { ["-c", $0] } + args), environment: environment,
                       commandName: Git.commandName(args), stdin: stdin, stdout: stdout, stallLimit: stallLimit, dataLimit: dataLimit)
    }

    struct Captured {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        /// keyshape's explanation of the failure (the watchdog's, or of git's stderr), or "".
        var reason: String
    }

    static func capture(executable: String, arguments: [String], environment: [String], command: String, stallLimit: Double,
                        maxBytes: Int = .max, dataLimit: Int? = nil) throws -> Captured {
        let p = try Subprocess(executable: executable, arguments: arguments, environment: environment, commandName: command,
                               stdin: .null, stdout: .pipe, stallLimit: stallLimit, dataLimit: dataLimit)
        guard let out = p.outputReader().readAll(limit: maxBytes) else {
            p.terminate()
            p.wait()
            throw GitError.outputTooLarge(command: command, limit: maxBytes)
        }
        let status = p.wait()
        return Captured(status: status, stdout: out, stderr: p.stderrBytes, reason: p.stderrReason)
    }

    /// Runs `git args…` to completion; stdout, or a typed error naming the command.
    /// - Parameter maxBytes: more output than this ends git and throws `outputTooLarge` (a
    ///   listing of a tree that repeats one subtree at every level runs to gigabytes).
    public func output(_ args: [String], maxBytes: Int = .max, dataLimit: Int? = nil) throws -> [UInt8] {
        let r = try Git.capture(executable: executable, arguments: arguments(args), environment: environment, command: Git.commandName(args),
                                stallLimit: stallLimit, maxBytes: maxBytes, dataLimit: dataLimit)
        guard r.status == 0 else {
            throw GitError.commandFailed(command: Git.commandName(args), status: r.status, reason: r.reason)
        }
        return r.stdout
    }

    /// Like `output`, but a failure is a value: (status, stdout, keyshape's explanation).
    public func tryOutput(_ args: [String]) throws -> (status: Int32, stdout: [UInt8], reason: String) {
        let r = try Git.capture(executable: executable, arguments: arguments(args), environment: environment, command: Git.commandName(args),
                                stallLimit: stallLimit)
        return (r.status, r.stdout, r.reason)
    }

    private let versionLock = NSLock()
    private var cachedVersion: [Int]?

    /// `git version`, as numbers ([2, 39, 5]); read once.
    public var version: [Int] {
        versionLock.lock(); defer { versionLock.unlock() }
        if let cachedVersion { return cachedVersion }
        let text = (try? Git.capture(executable: executable, arguments: ["version"], environment: environment, command: "git version",
                                     stallLimit: stallLimit))
            .map { String(decoding: $0.stdout, as: UTF8.self) } ?? ""
        // "git version 2.39.5" (vendors append more)
        let numbers = text.split(separator: " ").dropFirst(2).first.map { $0.split(separator: ".").prefix(3).compactMap { Int($0) } } ?? []
        cachedVersion = numbers
        return numbers
    }

    public func versionAtLeast(_ major: Int, _ minor: Int) -> Bool {
        let v = version
        guard v.count >= 2 else { return false }
        return (v[0], v[1]) >= (major, minor)
    }

    /// The empty tree's name in this repository's hash.
    public var emptyTree: ObjectID {
        oidByteCount == 32
            ? ObjectID("6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321")!
            : ObjectID("4b825dc642cb6eb9a060e54bf8d69288fbee4904")!
    }

    public var zeroID: ObjectID { .zero(byteCount: oidByteCount) }

    /// `rev-parse --verify --quiet REV^{commit}`: the commit REV names, or nil.
    public func resolveCommit(_ rev: String) throws -> ObjectID? {
        guard !rev.hasPrefix("-") else { return nil }
        return Git.resolved(try startResolving(rev))
    }

    /// Starts resolving `rev` (not starting with "-"); `resolved` waits for the answer.
    func startResolving(_ rev: String) throws -> Subprocess {
        try spawn(["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"])
    }

    /// The commit a `startResolving` process named, or nil.
    static func resolved(_ p: Subprocess) -> ObjectID? {
        let out = p.outputReader().readAll()
        return p.wait() == 0 ? ObjectID(hexBytes: out.prefix { $0 != 0x0A }) : nil
    }
}
