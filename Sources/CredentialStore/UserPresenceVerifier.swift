/// Confirms the user is present before a raw key is revealed or exported.
///
/// Kept out of the keychain item itself on purpose: an access-control flag
/// on the item would prompt on every routine read, which the product must
/// not do.
public protocol UserPresenceVerifier: Sendable {
    /// Throws `CredentialStoreError.userPresenceRequired` when the user
    /// declines or cannot authenticate.
    func verifyUserPresence(reason: String) throws
}

/// For platforms or configurations without a presence check.
public struct NoUserPresenceVerifier: UserPresenceVerifier {
    public init() {}

    public func verifyUserPresence(reason: String) throws {
        throw CredentialStoreError.userPresenceRequired(nil)
    }
}
