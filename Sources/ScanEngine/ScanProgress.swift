import Synchronization

/// Counters the workers bump and a progress line reads, without locks.
public final class ScanProgress: Sendable {
    public let filesDone = Atomic<Int>(0)
    public let bytesDone = Atomic<Int>(0)
    public let filesTotal = Atomic<Int>(0)

    public init() {}
}
