/// Counters for the summary line and the `stats` object of reports.
public struct ScanStats: Sendable, Equatable {
    public var files: Int = 0
    public var bytes: Int = 0
    public var commits: Int = 0
    public var blobs: Int = 0
    public var binaries: Int = 0
    public var seconds: Double = 0

    public init() {}

    public mutating func add(_ other: ScanStats) {
        files += other.files
        bytes += other.bytes
        commits += other.commits
        blobs += other.blobs
        binaries += other.binaries
    }
}
