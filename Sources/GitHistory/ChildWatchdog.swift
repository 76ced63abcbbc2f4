import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends a git child that keyshape waits for and that makes no progress: a repository can
/// make git block forever without using any time (a FIFO as `.git/HEAD`, `.git/config`,
/// `.git/index`, a loose ref or object, a `.gitignore` or `.gitattributes`: git's `open`
/// waits for a writer that never comes), and git runs with no timeout of its own.
///
/// A child is stalled when, for `limit` seconds without a break, a thread of keyshape waits
/// for it (in a read of its output or for its exit), the child owes that output (a
/// `diff-tree` that has answered every chunk it was sent is waiting for keyshape, not stuck),
/// no byte of output arrived (each read that returns ends the wait), and its CPU time did
/// not advance (`/proc/PID/stat`; a `rev-list` that thinks for a minute before its first
/// line is working, not stuck). It is then killed: the reader sees the end of its output,
/// its status says it was killed, and `ChildWatch.stallReason` says why, which the callers
/// turn into an error entry (exit 2).
///
/// One monitor thread for the whole process, started with the first child; it looks at the
/// waited-for children once a second (or four times per limit, when the limit is shorter).
final class ChildWatchdog: @unchecked Sendable {
    static let shared = ChildWatchdog()

    private let lock = NSLock()
    private var watches: [ObjectIdentifier: ChildWatch] = [:]
    private var started = false
    /// The shortest limit of a child registered so far: how often the monitor looks.
    private var tick: Double = 1

    /// The limit when neither the caller nor `KEYSHAPE_GIT_STALL_SECONDS` sets one: long
    /// enough that no working git reaches it (a working git uses CPU time or writes), short
    /// enough that a gate on a hostile repository fails in a minute instead of never.
    static let defaultLimit: Double = 60

    /// `KEYSHAPE_GIT_STALL_SECONDS` from `environment` when it is a positive number, else
    /// `defaultLimit` (tests of stalled repositories set a few seconds).
    static func limit(from environment: [String: String]) -> Double {
        if let text = environment["KEYSHAPE_GIT_STALL_SECONDS"], let seconds = Double(text), seconds > 0, seconds.isFinite {
            return seconds
        }
        return defaultLimit
    }

    func register(_ watch: ChildWatch) {
        lock.lock()
        watches[ObjectIdentifier(watch)] = watch
        tick = min(tick, max(0.05, watch.limit / 4))
        let start = !started
        started = true
        lock.unlock()
        if start { Thread.detachNewThread { [self] in monitor() } }
    }

    func unregister(_ watch: ChildWatch) {
        lock.lock()
        watches[ObjectIdentifier(watch)] = nil
        lock.unlock()
    }

    private func monitor() {
        while true {
            lock.lock()
            let interval = tick
            let waited = watches.values.filter { $0.isWaitedFor }
            lock.unlock()
            for watch in waited { watch.check(now: ChildWatchdog.now()) }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// Seconds on a clock that does not jump and does not run while the machine sleeps.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The child's user plus system CPU time in clock ticks, or nil where `/proc` does not
    /// say (then only output and the wait count).
    static func cpuTicks(_ pid: pid_t) -> UInt64? {
        #if os(Linux)
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 1024) }
        guard n > 0 else { return nil }
        // "pid (comm) state ppid …": the command name may hold spaces and parentheses, so the
        // fields are counted after the last ')'. utime and stime are fields 14 and 15.
        guard let close = buffer[0..<n].lastIndex(of: 0x29) else { return nil }
        let fields = buffer[(close + 1)..<n].split(separator: 0x20)
        guard fields.count > 13, let user = UInt64(String(decoding: fields[11], as: UTF8.self)),
              let system = UInt64(String(decoding: fields[12], as: UTF8.self)) else { return nil }
        return user + system
        #else
        return nil
        #endif
    }
}

/// One child's state for `ChildWatchdog`: who waits for it, since when it has been quiet,
/// and whether it was ended as stalled.
final class ChildWatch: @unchecked Sendable {
    let pid: pid_t
    let limit: Double
    let commandName: String
    private let lock = NSLock()
    private var waiters = 0
    private var quietSince = 0.0
    private var cpu: UInt64?
    private var reaped = false
    private var stalledAfter: Double?
    /// Whether the child owes output to a waiting reader (false: it is waiting for keyshape).
    var owesOutput: @Sendable () -> Bool = { true }

    init(pid: pid_t, limit: Double, commandName: String) {
        self.pid = pid
        self.limit = limit
        self.commandName = commandName
    }

    var isWaitedFor: Bool {
        lock.lock(); defer { lock.unlock() }
        return waiters > 0 && !reaped
    }

    /// Runs `body` (a blocking read of the child's output, or the wait for its exit) as a
    /// wait the watchdog watches.
    func waiting<R>(_ body: () -> R) -> R {
        lock.lock()
        if waiters == 0 {
            quietSince = ChildWatchdog.now()
            cpu = nil
        }
        waiters += 1
        lock.unlock()
        defer {
            lock.lock()
            waiters -= 1
            lock.unlock()
        }
        return body()
    }

    /// The child has exited and is about to be reaped: its pid may not be signalled after this.
    func markReaped() {
        lock.lock()
        reaped = true
        lock.unlock()
        ChildWatchdog.shared.unregister(self)
    }

    /// keyshape's explanation when the watchdog ended the child, else nil.
    var stallReason: String? {
        lock.lock(); defer { lock.unlock() }
        guard let stalledAfter else { return nil }
        let seconds = stalledAfter.rounded() == stalledAfter ? String(Int(stalledAfter)) : String(format: "%.1f", stalledAfter)
        return "git made no progress for \(seconds) s (a FIFO or other special file in the repository can make git wait forever); keyshape stopped it"
    }

    func check(now: Double) {
        guard owesOutput() else {
            lock.lock()
            quietSince = now
            lock.unlock()
            return
        }
        let ticks = ChildWatchdog.cpuTicks(pid)
        lock.lock()
        defer { lock.unlock() }
        guard waiters > 0, !reaped, stalledAfter == nil else { return }
        if ticks != cpu {
            if cpu != nil { quietSince = now }
            cpu = ticks
        }
        if now - quietSince >= limit {
            stalledAfter = limit
            kill(pid, SIGKILL)
        }
    }
}
