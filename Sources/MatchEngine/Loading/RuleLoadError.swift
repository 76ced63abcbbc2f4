/// A rule or config file that cannot be used. Always names the file and line; never
/// quotes a key or value from the file (a config may hold secrets, and a key pasted where
/// a name goes would be one), only keys keyshape defines and plain rule ids (RuleLoader.named).
public struct RuleLoadError: Error, Sendable, CustomStringConvertible {
    public var position: SourcePosition
    public var message: String

    public init(_ position: SourcePosition, _ message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position): \(message)" }
}

/// Something worth telling the user that does not stop loading (an unknown key, an override).
public struct RuleLoadWarning: Sendable, CustomStringConvertible, Equatable {
    public var position: SourcePosition
    public var message: String

    public var description: String { "\(position): warning: \(message)" }
}
