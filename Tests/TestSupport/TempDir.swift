import Foundation

/// A temporary folder for one test's files, removed when the value goes away. Nothing in it
/// is committed: the tests build their inputs (trees, repositories, reports) in one of these.
public final class TempDir {
    public let url: URL
    public var path: String { url.path }

    /// `prefix` names the folder in the temp directory (which suite left it, should one survive a crash).
    public init(prefix: String = "keyshape-test") {
        url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` at `relative` (folders made as needed); the file's URL.
    @discardableResult
    public func write(_ relative: String, _ text: String) -> URL { write(relative, Data(text.utf8)) }

    @discardableResult
    public func write(_ relative: String, _ data: Data) -> URL {
        let file = url.appendingPathComponent(relative)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! data.write(to: file)
        return file
    }

    /// The file's text, or "" when it cannot be read as UTF-8.
    public func read(_ relative: String) -> String { (try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)) ?? "" }

    /// The file's bytes, nil when there is no such file.
    public func bytes(_ relative: String) -> Data? { FileManager.default.contents(atPath: path + "/" + relative) }
}
