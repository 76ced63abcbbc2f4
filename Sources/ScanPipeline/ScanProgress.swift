import Synchronization

/// Counters the workers bump and a progress line reads, without locks.
public final class ScanProgress: Sendable {
    public let filesDone = Atomic<Int>(0)
    public let bytesDone = Atomic<Int>(0)
    public let filesTotal = Atomic<Int>(0)
    /// Folders: the listed files' sizes, and how much of them is read (a file's own bytes as
    /// its chunks are scanned; the rest of its size once it is done, whether it was an archive
    /// whose members expand past it, a file skipped or one that failed). The bar and the ETA
    /// go by these: the largest files are scanned first, so a count of files done says little
    /// (`scan /usr/lib /opt/swift/usr/lib` showed `ETA 7h18m` by file count for a 38 s scan).
    public let bytesTotal = Atomic<Int>(0)
    public let inputBytesDone = Atomic<Int>(0)
    /// History: commits attributed so far, and how many the scan selected (0 until git
    /// has listed them, which `rev-list` does in well under a second on git.git's 85k).
    public let commitsDone = Atomic<Int>(0)
    public let commitsTotal = Atomic<Int>(0)

    public init() {}
}
