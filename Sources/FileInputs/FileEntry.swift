/// A regular file found under a scan root.
public struct FileEntry: Sendable {
    /// The path to open, as raw bytes (file names need not be UTF-8), NUL-terminated.
    public var osPath: [CChar]
    /// `/`-separated, relative to the scan root; what reports print.
    public var displayPath: String
    public var size: Int

    public init(osPath: [CChar], displayPath: String, size: Int) {
        self.osPath = osPath
        self.displayPath = displayPath
        self.size = size
    }
}
