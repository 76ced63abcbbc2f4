import Foundation

/// Turns each API's server-sent events into `ChatStreamEvent`s.
struct StreamDecoder {
    let api: ProviderAPI
    private(set) var isFinished = false
    private var stopReason: String?

    init(api: ProviderAPI) {
        self.api = api
    }

    mutating func decode(_ event: ServerSentEvent) throws -> [ChatStreamEvent] {
        guard !isFinished else { return [] }
        switch api {
        case .anthropicMessages: return try decodeAnthropic(event)
        case .openAIChatCompletions: return try decodeOpenAI(event)
        }
    }

    /// Anthropic: `content_block_delta` carries text, `message_delta` the stop reason,
    /// `message_stop` ends, `error` can arrive mid-stream after a 200.
    private mutating func decodeAnthropic(_ event: ServerSentEvent) throws -> [ChatStreamEvent] {
        let object = try Self.json(event.data)
        let type = event.event ?? (object["type"] as? String)
        switch type {
        case "content_block_delta":
            let delta = object["delta"] as? [String: Any]
            guard delta?["type"] as? String == "text_delta", let text = delta?["text"] as? String else { return [] }
            return [.text(text)]
        case "message_delta":
            if let reason = (object["delta"] as? [String: Any])?["stop_reason"] as? String { stopReason = reason }
            return []
        case "message_stop":
            isFinished = true
            return [.finished(stopReason: stopReason)]
        case "error":
            throw ProviderError(streamErrorType: (object["error"] as? [String: Any])?["type"] as? String)
        default:
            return [] // message_start, content_block_start/stop, ping, future event types
        }
    }

    /// OpenAI: `data: {chunk}` lines with `choices[0].delta.content`, then `data: [DONE]`.
    private mutating func decodeOpenAI(_ event: ServerSentEvent) throws -> [ChatStreamEvent] {
        if event.data.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            isFinished = true
            return [.finished(stopReason: stopReason)]
        }
        let object = try Self.json(event.data)
        if let error = object["error"] as? [String: Any] {
            throw ProviderError(streamErrorType: (error["type"] as? String) ?? (error["code"] as? String))
        }
        guard let choice = (object["choices"] as? [[String: Any]])?.first else { return [] }
        if let reason = choice["finish_reason"] as? String { stopReason = reason }
        if let text = (choice["delta"] as? [String: Any])?["content"] as? String, !text.isEmpty { return [.text(text)] }
        return []
    }

    /// The stream ended without its terminator: report what was said about stopping.
    mutating func finishAtEndOfStream() -> [ChatStreamEvent] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.finished(stopReason: stopReason)]
    }

    private static func json(_ text: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ProviderError.transport(.invalidResponse)
        }
        return object
    }
}
