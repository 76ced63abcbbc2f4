import Foundation

/// The JSON bodies of both APIs. Only the request's fields go in; credentials have no
/// path into a body.
enum RequestBody {
    static func encode(_ request: ChatRequest, api: ProviderAPI, stream: Bool) throws -> Data {
        var object: [String: Any] = ["model": request.model, "max_tokens": request.maxTokens]
        var messages = request.messages.map { ["role": $0.role.rawValue, "content": $0.content] }
        switch api {
        case .anthropicMessages:
            if let system = request.system { object["system"] = system }
        case .openAIChatCompletions:
            if let system = request.system { messages.insert(["role": "system", "content": system], at: 0) }
        }
        object["messages"] = messages
        if stream { object["stream"] = true }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The answer of a non-streamed request.
    static func decodeResponse(_ data: Data, api: ProviderAPI) throws -> ChatResponse {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ProviderError.transport(.invalidResponse)
        }
        switch api {
        case .anthropicMessages:
            let blocks = object["content"] as? [[String: Any]] ?? []
            let text = blocks.compactMap { $0["type"] as? String == "text" ? $0["text"] as? String : nil }.joined()
            return ChatResponse(text: text, stopReason: object["stop_reason"] as? String)
        case .openAIChatCompletions:
            let choice = (object["choices"] as? [[String: Any]])?.first
            let message = choice?["message"] as? [String: Any]
            return ChatResponse(text: message?["content"] as? String ?? "", stopReason: choice?["finish_reason"] as? String)
        }
    }

    /// The provider's error `type` (`authentication_error`, `invalid_api_key`, ...), kept
    /// only when it is a short identifier, so no free text from the body survives.
    static func errorType(in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let error = object["error"] as? [String: Any] else { return nil }
        let type = (error["type"] as? String) ?? (error["code"] as? String)
        guard let type, (1...64).contains(type.utf8.count),
              type.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) })
        else { return nil }
        return type
    }
}
