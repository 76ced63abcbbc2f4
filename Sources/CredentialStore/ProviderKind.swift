/// Which API a connection talks to. Open-ended: any provider id is allowed,
/// the well-known ones get format checks.
public struct ProviderKind: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue.lowercased()
    }

    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    public static let anthropic = ProviderKind("anthropic")
    public static let openAI = ProviderKind("openai")

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
