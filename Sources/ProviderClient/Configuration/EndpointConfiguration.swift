import CredentialStore
import Foundation

/// Where requests go, chosen by configuration (a JSON file, remote config, a build
/// setting), never by editing the client:
///
/// - `direct`: the device holds the user's key (in the credential store) and calls the
///   provider or a custom endpoint itself.
/// - `proxy`: the app's own server holds the provider key; the device sends at most an
///   app token of its own, and never a provider key.
///
/// JSON: `{"mode": "direct", "connectionID": "work", "api": "anthropic-messages", ...}` or
/// `{"mode": "proxy", "baseURL": "https://proxy.example", "api": ..., "appToken": {...}}`.
public enum EndpointConfiguration: Codable, Hashable, Sendable {
    case direct(ConnectionProfile)
    case proxy(ProxyConfiguration)

    private enum CodingKeys: String, CodingKey { case mode }
    private enum Mode: String, Codable { case direct, proxy }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Mode.self, forKey: .mode) {
        case .direct: self = .direct(try ConnectionProfile(from: decoder))
        case .proxy: self = .proxy(try ProxyConfiguration(from: decoder))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .direct(let profile):
            try container.encode(Mode.direct, forKey: .mode)
            try profile.encode(to: encoder)
        case .proxy(let proxy):
            try container.encode(Mode.proxy, forKey: .mode)
            try proxy.encode(to: encoder)
        }
    }

    /// The id analytics and logs use for this endpoint.
    public var connectionID: String {
        switch self {
        case .direct(let profile): return profile.connectionID
        case .proxy(let proxy): return proxy.name
        }
    }
}

/// The app's own server in front of the provider.
public struct ProxyConfiguration: Codable, Hashable, Sendable {
    /// The device's credential for the proxy, if it has one. Its value lives in the
    /// credential store like any key and is read per request.
    public struct AppToken: Codable, Hashable, Sendable {
        public var headerName: String
        public var reference: CredentialReference
        /// Whether the value is sent as `Bearer TOKEN` (for `Authorization`).
        public var bearer: Bool

        public init(headerName: String = "Authorization", reference: CredentialReference, bearer: Bool? = nil) {
            self.headerName = headerName
            self.reference = reference
            self.bearer = bearer ?? (headerName.lowercased() == "authorization")
        }
    }

    /// A stable local name for this proxy, used as the connection id in logs and analytics.
    public var name: String
    /// Configured by the app, not typed by the user; trusted without a confirmation.
    public var baseURL: URL
    public var api: ProviderAPI
    /// Which provider the proxy fronts (for analytics).
    public var provider: ProviderKind
    public var appToken: AppToken?

    public init(name: String, baseURL: URL, api: ProviderAPI, provider: ProviderKind, appToken: AppToken? = nil) {
        self.name = name
        self.baseURL = baseURL
        self.api = api
        self.provider = provider
        self.appToken = appToken
    }
}
