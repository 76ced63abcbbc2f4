/// A command line that cannot be run: printed with a hint, exit status 2. The one type for
/// keyshape, keyshape-credentials and byok; its message never quotes an argument that could
/// be a key (the parser names positions, and flag names only when they look like one).
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
