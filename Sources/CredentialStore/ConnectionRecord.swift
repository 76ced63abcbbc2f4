import Foundation

/// Model choices for a connection; names only.
public struct ModelPreferences: Codable, Hashable, Sendable {
    public var defaultModel: String?
    public var preferredModels: [String]

    public init(defaultModel: String? = nil, preferredModels: [String] = []) {
        self.defaultModel = defaultModel
        self.preferredModels = preferredModels
    }
}

/// Everything about a connection except its secrets. Safe to serialise,
/// back up, sync and migrate: secrets are represented only by references,
/// and protected custom headers only by their names (their values live in
/// the credential store under `CredentialReference.header(_:for:)`).
public struct ConnectionRecord: Codable, Hashable, Sendable {
    public var id: String
    public var provider: ProviderKind
    public var displayName: String
    public var baseURL: URL
    public var modelPreferences: ModelPreferences
    /// Nil until a key has been stored.
    public var credentialReference: CredentialReference?
    /// Names such as `X-API-Key`; sorted, unique.
    public var protectedHeaderNames: [String]

    public init(
        id: String,
        provider: ProviderKind,
        displayName: String,
        baseURL: URL,
        modelPreferences: ModelPreferences = ModelPreferences(),
        credentialReference: CredentialReference? = nil,
        protectedHeaderNames: [String] = []
    ) {
        self.id = id
        self.provider = provider
        self.displayName = displayName
        self.baseURL = baseURL
        self.modelPreferences = modelPreferences
        self.credentialReference = credentialReference
        self.protectedHeaderNames = Array(Set(protectedHeaderNames)).sorted()
    }

    public func headerReference(_ name: String) throws -> CredentialReference {
        try CredentialReference.header(name, for: id)
    }

    public func headerReferences() throws -> [CredentialReference] {
        try protectedHeaderNames.map { try headerReference($0) }
    }
}

