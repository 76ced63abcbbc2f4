import CredentialStore
import Foundation

/// How the client talks to one directly-configured connection. Complements the
/// `ConnectionRecord` (base URL, provider, protected header names) the credential store
/// keeps; like the record it holds no secret, so it may be logged, synced and backed up.
public struct ConnectionProfile: Codable, Hashable, Sendable {
    public var connectionID: String
    public var api: ProviderAPI
    public var authentication: AuthenticationScheme
    /// User-defined headers classified public: sent as is, logged (after free-text
    /// redaction), backed up. Protected headers are named in the record and their values
    /// live in the credential store only.
    public var publicHeaders: [String: String]

    public init(connectionID: String, api: ProviderAPI, authentication: AuthenticationScheme? = nil,
                publicHeaders: [String: String] = [:]) {
        self.connectionID = connectionID
        self.api = api
        self.authentication = authentication ?? api.defaultAuthentication
        self.publicHeaders = publicHeaders
    }

    /// The usual profile for a record: the provider's protocol and key header.
    public init(record: ConnectionRecord) {
        self.init(connectionID: record.id, api: ProviderAPI.defaultAPI(for: record.provider))
    }
}

/// A user-defined header as entered: its value is either public or a secret.
public enum CustomHeaderValue: Sendable {
    case `public`(String)
    case protected(Secret)
}

extension ConnectionProfile {
    /// Stores a new connection: key and protected header values go to the credential
    /// store through the manager, public header values into the returned profile.
    /// Public header names that look like credentials are refused: a value classified
    /// public would be logged and backed up.
    public static func configure(_ record: ConnectionRecord, apiKey: Secret, headers: [String: CustomHeaderValue] = [:],
                                 api: ProviderAPI? = nil, authentication: AuthenticationScheme? = nil,
                                 in manager: ConnectionManager) throws -> ConnectionProfile {
        var publicHeaders: [String: String] = [:]
        var protected: [String: Secret] = [:]
        for (name, value) in headers {
            guard HTTPHeaderName.isValid(name) else { throw RequestRefusal.invalidConfiguration("invalid header name") }
            switch value {
            case .public(let text):
                if CredentialNames.isCredentialHeader(name) {
                    throw RequestRefusal.invalidConfiguration("header \(name) carries credentials and must be classified protected")
                }
                publicHeaders[name] = text
            case .protected(let secret):
                protected[name] = secret
            }
        }
        let stored = try manager.configure(record, apiKey: apiKey, protectedHeaders: protected)
        return ConnectionProfile(connectionID: stored.id, api: api ?? ProviderAPI.defaultAPI(for: stored.provider),
                                 authentication: authentication, publicHeaders: publicHeaders)
    }
}
