/// Callbacks into the app for work that holds a credential outside the
/// store: in-flight requests and cached auth state (tokens, signed headers).
/// Deletion calls them so a deleted key is not used once more by a request
/// that was already queued.
public struct ConnectionHooks: Sendable {
    public var cancelPendingWork: @Sendable (String) -> Void
    public var clearCachedAuthState: @Sendable (String) -> Void

    public init(cancelPendingWork: @escaping @Sendable (String) -> Void = { _ in },
                clearCachedAuthState: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cancelPendingWork = cancelPendingWork
        self.clearCachedAuthState = clearCachedAuthState
    }

    public static let none = ConnectionHooks()
}
