/// Why a file of a recognised app format could not be read. Messages carry numbers and
/// structure names only, never bytes from the file: a crafted file could otherwise smuggle a
/// secret into an error log.
public struct AppFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
