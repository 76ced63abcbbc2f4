import Foundation

public struct ChatMessage: Codable, Hashable, Sendable {
    public enum Role: String, Codable, Sendable {
        case user, assistant
    }

    public var role: Role
    public var content: String

    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }

    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    public static func assistant(_ text: String) -> ChatMessage { ChatMessage(role: .assistant, content: text) }
}

/// One chat turn to send. The same value works for both APIs; `RequestBody` writes the
/// wire format.
public struct ChatRequest: Hashable, Sendable {
    public var model: String
    public var messages: [ChatMessage]
    public var system: String?
    public var maxTokens: Int

    public init(model: String, messages: [ChatMessage], system: String? = nil, maxTokens: Int = 1024) {
        self.model = model
        self.messages = messages
        self.system = system
        self.maxTokens = maxTokens
    }
}

/// A complete answer.
public struct ChatResponse: Hashable, Sendable {
    public var text: String
    /// `end_turn`, `stop`, `max_tokens`, ... as the provider said it.
    public var stopReason: String?

    public init(text: String, stopReason: String?) {
        self.text = text
        self.stopReason = stopReason
    }
}

/// One piece of a streamed answer.
public enum ChatStreamEvent: Hashable, Sendable {
    case text(String)
    case finished(stopReason: String?)
}
