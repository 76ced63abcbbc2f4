import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a child's stdout or stderr is connected to, for tests of write failures that
/// `Process` cannot set up (a closed descriptor, /dev/full, a pipe nobody reads).
public enum StreamSetup: Sendable {
    /// A file the test reads afterwards.
    case file(String)
    /// A pipe whose read end is closed before the child starts: every write gets EPIPE.
    case closedPipe
    /// /dev/full: every write gets ENOSPC.
    case full
    /// No descriptor at all (`>&-`, `2>&-`).
    case closed
}

/// What a child's stdin is, when not text or /dev/null: a path opened with `flags` (a
/// folder, a file opened for writing only), or no descriptor at all (`0<&-`).
public enum InputSetup: Sendable {
    case path(String, flags: Int32)
    case closed
}

/// How a child ended: its exit status, or the signal that killed it (a trap is SIGILL or
/// SIGTRAP, which a shell shows as exit 132 or 133).
public struct ChildEnd: Sendable, Equatable, CustomStringConvertible {
    public var exitStatus: Int32?
    public var signal: Int32?
    public var timedOut = false

    public init(exitStatus: Int32?, signal: Int32?, timedOut: Bool = false) {
        self.exitStatus = exitStatus
        self.signal = signal
        self.timedOut = timedOut
    }

    public var description: String {
        if timedOut { return "timed out" }
        if let signal { return "killed by signal \(signal)" }
        return "exit \(exitStatus ?? -1)"
    }
}

/// Runs `executable` (never through a shell) with stdin from `input` or `stdin` (else
/// /dev/null) and stdout and stderr set up as asked, and waits for it (at most `timeout` seconds).
public func runWithStreams(_ executable: URL, _ arguments: [String], stdout: StreamSetup, stderr: StreamSetup,
                           input: String? = nil, stdin: InputSetup? = nil, timeout: TimeInterval = 120) -> ChildEnd {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var parentCloses: [Int32] = []
    func setUp(_ setup: StreamSetup, _ target: Int32) {
        switch setup {
        case .file(let path):
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            precondition(fd >= 0, "cannot open \(path)")
            posix_spawn_file_actions_adddup2(&actions, fd, target)
            parentCloses.append(fd)
        case .closedPipe:
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            close(fds[0])
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            parentCloses.append(fds[1])
        case .full:
            let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
            precondition(fd >= 0, "no /dev/full")
            posix_spawn_file_actions_adddup2(&actions, fd, target)
            parentCloses.append(fd)
        case .closed:
            posix_spawn_file_actions_addclose(&actions, target)
        }
    }
    var inputPath: String?
    if let input {
        let path = NSTemporaryDirectory() + "stdin-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(input.utf8))
        inputPath = path
    }
    switch stdin {
    case .path(let path, let flags)?: posix_spawn_file_actions_addopen(&actions, 0, path, flags, 0)
    case .closed?: posix_spawn_file_actions_addclose(&actions, 0)
    case nil: posix_spawn_file_actions_addopen(&actions, 0, inputPath ?? "/dev/null", O_RDONLY, 0)
    }
    setUp(stdout, 1)
    setUp(stderr, 2)
    defer {
        parentCloses.forEach { close($0) }
        if let inputPath { try? FileManager.default.removeItem(atPath: inputPath) }
    }

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    precondition(spawned == 0, "posix_spawn failed: \(spawned)")

    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid { break }
        if r < 0 && errno != EINTR { return ChildEnd(exitStatus: nil, signal: nil) }
        if Date() > deadline {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            return ChildEnd(exitStatus: nil, signal: nil, timedOut: true)
        }
        usleep(10_000)
    }
    // The <sys/wait.h> macros, which Swift does not import.
    let signal = status & 0x7f
    if signal == 0 { return ChildEnd(exitStatus: (status >> 8) & 0xff, signal: nil) }
    return ChildEnd(exitStatus: nil, signal: signal)
}
