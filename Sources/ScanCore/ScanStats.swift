/// Counters for the summary line and the `stats` object of reports.
public struct ScanStats: Sendable, Equatable {
    public var files: Int = 0
    public var bytes: Int = 0
    public var commits: Int = 0
    public var blobs: Int = 0
    public var binaries: Int = 0
    public var seconds: Double = 0
    /// Findings that allowlists, inline markers and the baseline kept out of the report.
    public var suppressed = SuppressionCounts()
    /// Files (in history: blobs) that a path-only allowlist covers, so they were not read:
    /// what they hold cannot be counted as findings.
    public var allowlistedFiles = 0
    /// Findings left out by `--min-confidence`.
    public var belowMinConfidence = 0

    public init() {}

    public mutating func add(_ other: ScanStats) {
        files += other.files
        bytes += other.bytes
        commits += other.commits
        blobs += other.blobs
        binaries += other.binaries
        suppressed.add(other.suppressed)
        allowlistedFiles += other.allowlistedFiles
        belowMinConfidence += other.belowMinConfidence
    }
}
