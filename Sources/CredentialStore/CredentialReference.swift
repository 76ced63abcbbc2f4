import Foundation

/// Where a secret lives in the store. Carries no secret material itself, so
/// it may be serialised into connection records, logs and error messages.
///
/// Raw form: `<connection>/<kind>/<name>`. For an API key `name` is a
/// generation id, which lets a rotation write the replacement next to the
/// old item before switching; for a protected header it is the header name.
public struct CredentialReference: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case apiKey = "api-key"
        case header = "header"
    }

    public let connectionID: String
    public let kind: Kind
    public let name: String

    public init(connectionID: String, kind: Kind, name: String) throws {
        guard Self.isValidComponent(connectionID) else {
            throw CredentialStoreError.invalidReference(reason: "connection id must be 1-128 of A-Z a-z 0-9 . _ -")
        }
        guard Self.isValidComponent(name) else {
            throw CredentialStoreError.invalidReference(reason: "item name must be 1-128 of A-Z a-z 0-9 . _ -")
        }
        self.connectionID = connectionID
        self.kind = kind
        self.name = name
    }

    public init?(rawValue: String) {
        let parts = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = Kind(rawValue: String(parts[1])),
              let reference = try? CredentialReference(connectionID: String(parts[0]), kind: kind, name: String(parts[2]))
        else { return nil }
        self = reference
    }

    public var rawValue: String { "\(connectionID)/\(kind.rawValue)/\(name)" }
    public var description: String { rawValue }

    /// A fresh generation for an API key; a new one per save keeps the old
    /// and new items apart during rotation.
    public static func apiKey(for connectionID: String, generation: String = newGeneration()) throws -> CredentialReference {
        try CredentialReference(connectionID: connectionID, kind: .apiKey, name: generation)
    }

    /// Header values are replaced in place, so their reference is stable.
    public static func header(_ headerName: String, for connectionID: String) throws -> CredentialReference {
        try CredentialReference(connectionID: connectionID, kind: .header, name: headerName)
    }

    public static func newGeneration() -> String {
        UUID().uuidString.lowercased()
    }

    static func isValidComponent(_ text: String) -> Bool {
        guard (1...128).contains(text.utf8.count) else { return false }
        return text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }
}

extension CredentialReference: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let reference = CredentialReference(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a credential reference")
        }
        self = reference
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension CredentialReference: Comparable {
    public static func < (lhs: CredentialReference, rhs: CredentialReference) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
