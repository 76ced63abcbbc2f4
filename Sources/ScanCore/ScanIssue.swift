/// A problem that kept part of a scan from finishing: an unreadable file, a rule that hit
/// its match limit, a malformed binary. Reported next to findings; any issue makes the
/// scan exit 2. Messages never quote scanned content.
public struct ScanIssue: Sendable, Hashable, Comparable, Error, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    public static func < (a: ScanIssue, b: ScanIssue) -> Bool {
        (a.path, a.message) < (b.path, b.message)
    }
}
