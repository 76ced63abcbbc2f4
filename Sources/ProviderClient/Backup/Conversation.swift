import Foundation

/// A stored conversation: messages and the connection they were sent through (by id).
public struct Conversation: Codable, Hashable, Sendable {
    public var id: String
    public var title: String
    public var connectionID: String
    public var messages: [ChatMessage]
    public var updatedAt: Date

    public init(id: String = UUID().uuidString.lowercased(), title: String, connectionID: String,
                messages: [ChatMessage] = [], updatedAt: Date = Date()) {
        self.id = id
        self.title = title
        self.connectionID = connectionID
        self.messages = messages
        self.updatedAt = updatedAt
    }
}
