/// Why a file could not be mapped. Messages carry numbers and structure names only, never bytes
/// from the file: a crafted header could otherwise smuggle a secret into an error log.
public struct ObjectFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
