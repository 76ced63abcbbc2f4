import CredentialStore
import Foundation

/// The wire protocol a connection speaks. Separate from `ProviderKind` (who runs the
/// endpoint) because many providers speak OpenAI's protocol.
public enum ProviderAPI: String, Codable, Sendable, CaseIterable {
    /// Anthropic Messages API: `POST {base}/v1/messages`.
    case anthropicMessages = "anthropic-messages"
    /// OpenAI chat completions and compatible servers: `POST {base}/chat/completions`,
    /// where the base URL already ends in the version (`https://api.openai.com/v1`).
    case openAIChatCompletions = "openai-chat-completions"

    public static let anthropicVersion = "2023-06-01"

    /// Path appended to the connection's base URL.
    public var path: String {
        switch self {
        case .anthropicMessages: return "v1/messages"
        case .openAIChatCompletions: return "chat/completions"
        }
    }

    /// The protocol a provider speaks unless the configuration says otherwise.
    public static func defaultAPI(for provider: ProviderKind) -> ProviderAPI {
        provider == .anthropic ? .anthropicMessages : .openAIChatCompletions
    }

    /// How the provider expects its key when the configuration does not say.
    public var defaultAuthentication: AuthenticationScheme {
        switch self {
        case .anthropicMessages: return .xAPIKey
        case .openAIChatCompletions: return .bearer
        }
    }
}
