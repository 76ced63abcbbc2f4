import Synchronization

/// Counters the workers bump and a progress line reads, without locks.
public final class ScanProgress: Sendable {
    public let filesDone = Atomic<Int>(0)
    public let bytesDone = Atomic<Int>(0)
    public let filesTotal = Atomic<Int>(0)
    /// History: commits attributed so far, and how many the scan selected (0 until git
    /// has listed them, which `rev-list` does in well under a second on git.git's 85k).
    public let commitsDone = Atomic<Int>(0)
    public let commitsTotal = Atomic<Int>(0)

    public init() {}
}
