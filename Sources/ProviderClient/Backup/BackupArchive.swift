import CredentialStore
import Foundation

/// A backup: conversations and connections, never credentials. Each connection is
/// written with an explicit `"credential": null` so a reader of the file (or a
/// migration) sees that the key was left out on purpose and where it would have been.
///
/// Origin confirmations are left out too: a restored connection must be confirmed again,
/// or a crafted archive could pre-approve a host the user never saw.
public struct BackupArchive: Codable, Sendable {
    public static let currentFormat = 1

    public var format: Int
    public var createdAt: Date
    public var connections: [ConnectionBackup]
    public var conversations: [Conversation]

    public init(createdAt: Date = Date(), connections: [ConnectionBackup], conversations: [Conversation]) {
        format = Self.currentFormat
        self.createdAt = createdAt
        self.connections = connections
        self.conversations = conversations
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> BackupArchive {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(BackupArchive.self, from: data)
    }
}

/// One connection in a backup: the record's metadata and the client profile. No key, no
/// protected header values, no credential reference (references point into one device's
/// secret store and mean nothing elsewhere).
public struct ConnectionBackup: Codable, Hashable, Sendable {
    public var id: String
    public var provider: ProviderKind
    public var displayName: String
    public var baseURL: URL
    public var modelPreferences: ModelPreferences
    public var protectedHeaderNames: [String]
    public var profile: ConnectionProfile?
    /// Whether the archive this was read from had a non-null `credential`; such a value is
    /// never imported, only counted so the restore can say it ignored it.
    public private(set) var archiveCarriedCredential = false

    public init(record: ConnectionRecord, profile: ConnectionProfile?) {
        id = record.id
        provider = record.provider
        displayName = record.displayName
        baseURL = record.baseURL
        modelPreferences = record.modelPreferences
        protectedHeaderNames = record.protectedHeaderNames
        self.profile = profile
    }

    private enum CodingKeys: String, CodingKey {
        case id, provider, displayName, baseURL, modelPreferences, protectedHeaderNames, profile, credential
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        provider = try container.decode(ProviderKind.self, forKey: .provider)
        displayName = try container.decode(String.self, forKey: .displayName)
        baseURL = try container.decode(URL.self, forKey: .baseURL)
        modelPreferences = try container.decodeIfPresent(ModelPreferences.self, forKey: .modelPreferences) ?? ModelPreferences()
        protectedHeaderNames = try container.decodeIfPresent([String].self, forKey: .protectedHeaderNames) ?? []
        profile = try container.decodeIfPresent(ConnectionProfile.self, forKey: .profile)
        // Whatever is there is not read into memory as a value: only its presence counts.
        archiveCarriedCredential = container.contains(.credential) && !((try? container.decodeNil(forKey: .credential)) ?? true)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(provider, forKey: .provider)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(baseURL, forKey: .baseURL)
        try container.encode(modelPreferences, forKey: .modelPreferences)
        try container.encode(protectedHeaderNames, forKey: .protectedHeaderNames)
        try container.encodeIfPresent(profile, forKey: .profile)
        try container.encodeNil(forKey: .credential)
    }

    /// The record as restored: no credential reference, so it reads as "credential required".
    var restoredRecord: ConnectionRecord {
        ConnectionRecord(id: id, provider: provider, displayName: displayName, baseURL: baseURL,
                         modelPreferences: modelPreferences, credentialReference: nil,
                         protectedHeaderNames: protectedHeaderNames)
    }
}
