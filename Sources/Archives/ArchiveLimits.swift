/// The bounds every archive is read under. Each one fails closed: reaching it is an
/// `ArchiveProblem` for the archive (and member) where it was reached, never a silent stop.
///
/// Why these defaults:
/// - `maxExpandedBytes` (1 GiB, `--max-archive-size`): memory does not grow with it (members
///   stream through a fixed window), only time does. Release artefacts are the reason
///   archives are opened, and a large iOS app or Android bundle expands to a few hundred
///   MiB, so 256 MiB would fail many real builds; 1 GiB covers them with room, and a bomb
///   that uses all of it costs a few seconds of inflate and scan, not hours.
/// - `maxCompressionRatio` (100:1 once a member has expanded past `ratioFloorBytes`, 8 MiB):
///   source, binaries and resources compress 2:1 to 20:1; deflate cannot pass about 1032:1
///   and bzip2 of zeros passes 10^5:1, so a bomb member is stopped within its first few
///   MiB instead of using up the whole size budget. Below 8 MiB any ratio is allowed: what
///   merely compresses well is data, not a bomb, and is told apart by what it expands to
///   (git.git's t5004 big-pack.zip holds a 4 MB pack in 6.8 KB, 614:1; JSON test data
///   gzipped at over 100:1; padding files), and 8 MiB of it costs nothing to scan.
/// - `maxMembers` (100,000, counted over every nesting level of one top-level archive):
///   the largest jars and npm packages hold tens of thousands of entries; a 42.zip-style
///   tree of tiny members is cut off by this before it can cost time per entry.
/// - `maxProblems` (100 per top-level archive): past that the archive is hostile or
///   hopelessly damaged, and reading on would only turn it into thousands of error entries.
/// - `maxDepth` (4, `--max-archive-depth`): an app bundle in a zip holding a framework's
///   jar is three levels; a quine or a nested bomb ends here.
public struct ArchiveLimits: Sendable, Hashable {
    public var maxExpandedBytes: Int64
    public var maxCompressionRatio: Int64
    public var ratioFloorBytes: Int64
    public var maxMembers: Int
    public var maxProblems: Int
    public var maxDepth: Int
    /// Bytes asked of the source at a time (also what one level of a nested archive keeps
    /// buffered): libarchive sees the input through a window this size, never all of it.
    public var readBlockBytes: Int

    public static let defaultMaxExpandedBytes: Int64 = 1 << 30
    public static let defaultMaxDepth = 4

    public init(maxExpandedBytes: Int64 = ArchiveLimits.defaultMaxExpandedBytes,
                maxCompressionRatio: Int64 = 100,
                ratioFloorBytes: Int64 = 8 << 20,
                maxMembers: Int = 100_000,
                maxProblems: Int = 100,
                maxDepth: Int = ArchiveLimits.defaultMaxDepth,
                readBlockBytes: Int = 64 << 10) {
        self.maxExpandedBytes = max(0, maxExpandedBytes)
        self.maxCompressionRatio = max(1, maxCompressionRatio)
        self.ratioFloorBytes = max(0, ratioFloorBytes)
        self.maxMembers = max(0, maxMembers)
        self.maxProblems = max(1, maxProblems)
        self.maxDepth = max(0, maxDepth)
        self.readBlockBytes = min(max(512, readBlockBytes), 16 << 20)
    }
}
