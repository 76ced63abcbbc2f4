import Foundation

/// Why the client refused to send a request at all. Raised before anything reaches the
/// network; cases carry ids, origins and closed enums, never URL text or values.
public enum RequestRefusal: Error, Equatable, Sendable {
    public enum CredentialInURL: Equatable, Sendable {
        /// The key (or a protected header value, or the app token) occurs in the URL.
        case credentialValue
        /// A query or fragment parameter is named like a credential (`api_key`, `token`, ...).
        case sensitiveParameter(SensitiveParameterKind)
        /// The URL has a user name or password.
        case userInfo
    }

    case credentialInURL(CredentialInURL)
    /// The request body contains the key or a protected header value (for example a
    /// pasted key in a chat message); it would end up in the provider's logs.
    case credentialInBody
    /// Plain `http` to a host that is not loopback, for a request that carries credentials.
    case insecureTransport(Origin)
    /// A custom endpoint whose scheme, host and port the user has not confirmed.
    case originNotConfirmed(Origin)
    /// The connection has no usable key: never stored, restored from a backup, revoked.
    case credentialRequired(connectionID: String)
    /// The credential store failed; the text is the store error's (value-free) description.
    case credentialUnavailable(connectionID: String, reason: String)
    case unknownConnection(String)
    case invalidConfiguration(String)
}

extension RequestRefusal: CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    public var description: String {
        let text: String
        switch self {
        case .credentialInURL(.credentialValue): text = "refused: the URL contains a credential; credentials go in headers only"
        case .credentialInURL(.sensitiveParameter(let kind)):
            text = "refused: the URL has a parameter named like a \(kind.rawValue); credentials go in headers only"
        case .credentialInURL(.userInfo): text = "refused: the URL contains a user name or password"
        case .credentialInBody: text = "refused: the message contains this connection's credential"
        case .insecureTransport(let origin): text = "refused: credentials are never sent over plain http to \(origin)"
        case .originNotConfirmed(let origin): text = "refused: \(origin) has not been confirmed for this connection"
        case .credentialRequired(let id): text = "credential required for \(id)"
        case .credentialUnavailable(let id, let reason): text = "the credential of \(id) could not be read: \(reason)"
        case .unknownConnection(let id): text = "no connection named \(id)"
        case .invalidConfiguration(let reason): text = "invalid configuration: \(reason)"
        }
        // Ids and hosts are user-typed; a pasted key there must not come back out.
        return Redactor.fallbackOnly.scrub(text)
    }

    public var debugDescription: String { "RequestRefusal(\(description))" }
    public var errorDescription: String? { description }
}
