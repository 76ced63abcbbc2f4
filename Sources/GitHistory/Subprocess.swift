import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// A child process started with posix_spawn: arguments as an array (never a shell), an
/// explicit environment, pipes created close-on-exec so no other child inherits them, and
/// stderr drained by a thread into a bounded buffer (to recognise the cause of a failure;
/// never printed).
final class Subprocess: @unchecked Sendable {
    enum Input { case null, pipe, fd(Int32) }
    enum Output { case null, pipe, fd(Int32) }

    let pid: pid_t
    /// Write end of the child's stdin, when `.pipe`; the owner closes it (or `closeStdin`).
    private(set) var stdinFD: Int32 = -1
    /// Read end of the child's stdout, when `.pipe`.
    private(set) var stdoutFD: Int32 = -1
    private let stderrDone = DispatchSemaphore(value: 0)
    private let stderrBox = StderrBox()
    private var exitStatus: Int32?
    let commandName: String
    /// The watchdog's view of this child (`ChildWatchdog`): reads of its output and the wait
    /// for its exit are watched, and a child stalled past `stallLimit` is killed.
    let watch: ChildWatch

    private final class StderrBox: @unchecked Sendable { var bytes: [UInt8] = [] }

    /// Keeps the first 16 KiB of stderr; the rest is drained and dropped.
    static let stderrLimit = 16 << 10

    /// - Parameter stallLimit: seconds a child keyshape waits for may go without output and
    ///   without CPU time before it is killed (`ChildWatchdog`).
    init(executable: String, arguments: [String], environment: [String], commandName: String,
         stdin: Input, stdout: Output, stallLimit: Double = ChildWatchdog.defaultLimit, dataLimit: Int? = nil) throws {
        Subprocess.ignoreSIGPIPE
        self.commandName = commandName
        var fa = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fa)
        defer { posix_spawn_file_actions_destroy(&fa) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }

        var toClose: [Int32] = []
        var parentIn: Int32 = -1, parentOut: Int32 = -1
        defer { for fd in toClose { close(fd) } }

        switch stdin {
        case .null:
            posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let (r, w) = try Subprocess.pipe(commandName)
            posix_spawn_file_actions_adddup2(&fa, r, 0)
            toClose.append(r)
            parentIn = w
        case .fd(let fd):
            posix_spawn_file_actions_adddup2(&fa, fd, 0)
        }
        switch stdout {
        case .null:
            posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0)
        case .pipe:
            let (r, w) = try Subprocess.pipe(commandName)
            posix_spawn_file_actions_adddup2(&fa, w, 1)
            toClose.append(w)
            parentOut = r
        case .fd(let fd):
            posix_spawn_file_actions_adddup2(&fa, fd, 1)
        }
        let (errR, errW) = try Subprocess.pipe(commandName)
        posix_spawn_file_actions_adddup2(&fa, errW, 2)
        toClose.append(errW)
        if let closeFrom = Subprocess.addCloseFrom { _ = closeFrom(&fa, 3) }

        // The child starts with default signal handling and an empty mask (we ignore SIGPIPE).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attr, &mask)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) }; for p in envp { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &fa, &attr, argv, envp)
        if rc != 0 {
            close(errR)
            if parentIn >= 0 { close(parentIn) }
            if parentOut >= 0 { close(parentOut) }
            throw GitError.spawnFailed(command: commandName, errno: rc)
        }
        pid = child
        if let dataLimit { Subprocess.limitData(of: child, to: dataLimit) }
        watch = ChildWatch(pid: child, limit: stallLimit, commandName: commandName)
        ChildWatchdog.shared.register(watch)
        stdinFD = parentIn
        stdoutFD = parentOut
        let box = stderrBox, done = stderrDone
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { POSIX.read(errR, $0.baseAddress, 4096) }
                if n <= 0 { break }
                if box.bytes.count < Subprocess.stderrLimit { box.bytes += chunk[0..<min(n, Subprocess.stderrLimit - box.bytes.count)] }
            }
            close(errR)
            done.signal()
        }
    }

    static func pipe(_ command: String) throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        // pipe2 is not visible from Swift here; close-on-exec is set right after (and the child
        // closes every descriptor above 2 anyway where glibc offers closefrom).
        guard Glibc.pipe(&fds) == 0 else { throw GitError.spawnFailed(command: command, errno: errno) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), looked up at run time: the
    /// child then holds no descriptor but 0, 1 and 2 even if another thread made one without
    /// close-on-exec.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Caps the child's heap (RLIMIT_DATA: private writable memory; git's read-only pack
    /// mappings are not counted), set with prlimit(2) right after the spawn, while the child
    /// is still starting git: an allocation past it fails and git exits. Linux only, best
    /// effort (looked up at run time).
    static func limitData(of child: pid_t, to bytes: Int) {
        guard let prlimit = Subprocess.prlimit else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        _ = prlimit(child, 2 /* RLIMIT_DATA */, &limit, nil)
    }

    private static let prlimit: (@convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32)? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prlimit") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32).self)
    }()

    /// Writing to a pipe whose reader died must be an error, not a signal that ends keyshape.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Asks for a 1 MiB pipe (Linux F_SETPIPE_SZ), so a reader wakes less often; best effort.
    static func enlargePipe(_ fd: Int32) {
        #if os(Linux)
        _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        #endif
    }

    func closeStdin() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    func closeStdout() {
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
    }

    /// Waits for the child; the exit status, or 128 + signal.
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        closeStdin()
        // Waits without reaping (the watchdog may still signal the pid, which no other
        // process can take while it is a zombie), then reaps.
        watch.waiting {
            var info = siginfo_t()
            _ = POSIX.retrying { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
        }
        watch.markReaped()
        var status: Int32 = 0
        _ = POSIX.retrying { waitpid(pid, &status, 0) }
        stderrDone.wait()
        closeStdout()
        let low = status & 0x7f
        let code: Int32 = low == 0 ? (status >> 8) & 0xff : 128 + low
        exitStatus = code
        return code
    }

    /// Ends the child early (used when a scan stops).
    func terminate() { kill(pid, SIGTERM) }

    /// keyshape's explanation of git's stderr (never git's words), or of the watchdog's
    /// ending it; valid after `wait()`.
    var stderrReason: String { watch.stallReason ?? GitError.explain(stderrBox.bytes) }

    /// A reader of the child's output (`.pipe`) whose blocking reads the watchdog watches.
    func outputReader(coalesce: Bool = false) -> FDReader {
        let reader = FDReader(fd: stdoutFD, coalesce: coalesce)
        reader.watch = watch
        return reader
    }
    var stderrBytes: [UInt8] { stderrBox.bytes }

    deinit {
        if exitStatus == nil { terminate(); wait() }
    }
}

/// Buffered reads from a descriptor: tokens up to a delimiter, exact byte counts.
final class FDReader {
    let fd: Int32
    /// The child whose output this is, when a watchdog watches it: each blocking read is a
    /// wait for that child.
    var watch: ChildWatch?
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var start = 0
    private var end = 0
    private(set) var atEOF = false

    /// For bulk streams: after a read that found little in the pipe, wait a moment before
    /// the next one so the writer fills the pipe instead of waking this thread for every
    /// small write it makes.
    let coalesce: Bool
    private var lastReadWasSmall = false

    /// The reader's own buffer; `buffer` is a caller's region while one is adopted.
    private var own: UnsafeMutableRawPointer
    private var ownCapacity: Int
    /// Whether `buffer` is a caller's region: bytes in it are never moved, nor the region
    /// grown, since the caller keeps pointers into it.
    private(set) var isAdopted = false

    init(fd: Int32, capacity: Int = 256 << 10, coalesce: Bool = false) {
        self.fd = fd
        self.coalesce = coalesce
        self.capacity = capacity
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        own = buffer
        ownCapacity = capacity
    }

    deinit { own.deallocate() }

    /// Bytes read from the file but not yet consumed.
    var pending: Int { end - start }

    /// Room left in the buffer from the next unconsumed byte on.
    var room: Int { capacity - start }

    /// Continues the stream in the caller's `region` (the pending bytes move there), so the
    /// next objects are read straight into it; it must hold at least `pending` bytes.
    func adopt(_ region: UnsafeMutableRawPointer, capacity regionCapacity: Int) {
        precondition(pending <= regionCapacity, "region smaller than the bytes already read")
        moveReading(to: region, capacity: regionCapacity, adopted: true)
    }

    /// Back to the reader's own buffer (the pending bytes move there): the caller may reuse
    /// the region.
    func disown() {
        guard isAdopted else { return }
        if pending > ownCapacity {
            own.deallocate()
            ownCapacity = pending
            own = .allocate(byteCount: ownCapacity, alignment: 16)
        }
        moveReading(to: own, capacity: ownCapacity, adopted: false)
    }

    private func moveReading(to destination: UnsafeMutableRawPointer, capacity newCapacity: Int, adopted: Bool) {
        let n = pending
        destination.copyMemory(from: buffer + start, byteCount: n)
        buffer = destination
        capacity = newCapacity
        start = 0
        end = n
        isAdopted = adopted
    }

    /// The next `count` bytes, contiguous in the buffer where they were read, consumed; nil
    /// if the input ends first or they cannot fit (`count > room`).
    func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count <= room else { return nil }
        while pending < count { if !fill() { return nil } }
        let bytes = UnsafeRawBufferPointer(start: buffer + start, count: count)
        start += count
        return bytes
    }

    /// Reads more input; false at end of file (or a read error), or when an adopted region
    /// is full (its caller leaves room, so that means input it did not expect).
    private func fill() -> Bool {
        if atEOF { return false }
        if start == end && !isAdopted { start = 0; end = 0 }
        if end == capacity {
            if isAdopted { return false }
            if start > 0 {
                memmove(buffer, buffer + start, end - start)
                end -= start
                start = 0
            } else {
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: buffer, byteCount: end)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
                own = buffer
                ownCapacity = capacity
            }
        }
        if coalesce && lastReadWasSmall { usleep(FDReader.coalesceMicroseconds) }
        guard let n = readFile(into: buffer + end, count: capacity - end) else { return false }
        end += n
        lastReadWasSmall = n < FDReader.smallRead
        return true
    }

    /// One read(2) of up to `count` bytes (retried on EINTR); nil at end of file or on an
    /// error, which ends the input.
    private func readFile(into destination: UnsafeMutableRawPointer, count: Int) -> Int? {
        let n = watch.map { w in w.waiting { POSIX.read(fd, destination, count) } } ?? POSIX.read(fd, destination, count)
        if n <= 0 { atEOF = true; return nil }
        return n
    }

    /// The bytes before the next `delimiter` (consumed with it), passed to `body` without
    /// a copy. nil at end of input; a final token without delimiter is returned as is.
    func withToken<R>(_ delimiter: UInt8, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        var searchFrom = start
        while true {
            if let hit = memchr(buffer + searchFrom, Int32(delimiter), end - searchFrom) {
                let at = buffer.distance(to: hit)
                let token = UnsafeRawBufferPointer(start: buffer + start, count: at - start)
                let result = body(token)
                start = at + 1
                return result
            }
            let scanned = end - start
            if !fill() {
                if start == end { return nil }
                let token = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
                let result = body(token)
                start = end
                return result
            }
            searchFrom = start + scanned
        }
    }

    func token(_ delimiter: UInt8) -> [UInt8]? { withToken(delimiter) { Array($0) } }

    func peek() -> UInt8? {
        if start == end && !fill() { return nil }
        return buffer.load(fromByteOffset: start, as: UInt8.self)
    }

    func skipByte() { if peek() != nil { start += 1 } }

    static let smallRead = 64 << 10
    static let coalesceMicroseconds: UInt32 = 300

    /// Copies exactly `count` bytes into `destination`; false if the input ends first.
    func read(exactly count: Int, into destination: UnsafeMutableRawPointer) -> Bool {
        var copied = 0
        while copied < count {
            if start == end && count - copied >= 64 << 10 {
                // Large and nothing buffered: straight from the pipe into place, no second copy.
                guard let n = readFile(into: destination + copied, count: count - copied) else { return false }
                copied += n
                continue
            }
            if start == end && !fill() { return false }
            let n = min(count - copied, end - start)
            (destination + copied).copyMemory(from: buffer + start, byteCount: n)
            start += n
            copied += n
        }
        return true
    }

    /// Drops exactly `count` bytes; false if the input ends first. What is not buffered yet
    /// is read past without being stored (an adopted region has no room to spare for it).
    func skip(_ count: Int) -> Bool {
        var left = count
        let buffered = min(left, pending)
        start += buffered
        left -= buffered
        if left == 0 { return true }
        let scratchSize = 64 << 10
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchSize, alignment: 16)
        defer { scratch.deallocate() }
        while left > 0 {
            guard let n = readFile(into: scratch, count: min(left, scratchSize)) else { return false }
            left -= n
        }
        return true
    }

    /// Everything up to end of input.
    func readAll() -> [UInt8] { readAll(limit: .max)! }

    /// Everything up to end of input, or nil as soon as it exceeds `limit` bytes (the rest
    /// is left unread).
    func readAll(limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        while true {
            if start < end { out += UnsafeRawBufferPointer(start: buffer + start, count: end - start); start = end }
            if out.count > limit { return nil }
            if !fill() { return out }
        }
    }
}
