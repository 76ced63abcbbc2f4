/// A regular file found under a scan root.
public struct FileEntry: Sendable {
    /// The path to open, as raw bytes (file names need not be UTF-8), NUL-terminated.
    public var osPath: [CChar]
    /// `/`-separated, relative to the scan root, as raw bytes: the file's identity (its
    /// fingerprints derive from it), so two names that differ only in bytes that are not
    /// UTF-8 stay two files.
    public var pathBytes: [UInt8]
    /// `pathBytes` for reports: invalid UTF-8 bytes escaped as `\xff` (see `PathText`).
    public var displayPath: String
    public var size: Int

    public init(osPath: [CChar], pathBytes: [UInt8], size: Int) {
        self.osPath = osPath
        self.pathBytes = pathBytes
        self.displayPath = PathText.display(pathBytes)
        self.size = size
    }

    public init(osPath: [CChar], displayPath: String, size: Int) {
        self.init(osPath: osPath, pathBytes: Array(displayPath.utf8), size: size)
    }
}
