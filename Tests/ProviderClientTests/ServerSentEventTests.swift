import Foundation
@testable import ProviderClient
import XCTest

final class ServerSentEventTests: XCTestCase {
    private let stream = "event: a\r\ndata: {\"x\":1}\r\n\r\n: comment\n\ndata: line1\ndata: line2\n\nid: 7\rdata: cr\r\r"

    func testParsesAcrossEveryChunkBoundary() throws {
        let bytes = Array(stream.utf8)
        let expected = [ServerSentEvent(event: "a", data: "{\"x\":1}", id: nil),
                        ServerSentEvent(event: nil, data: "line1\nline2", id: nil),
                        ServerSentEvent(event: nil, data: "cr", id: "7")]
        for cut in 0...bytes.count {
            var parser = ServerSentEventParser()
            var events = try parser.feed(Data(bytes[..<cut]))
            events += try parser.feed(Data(bytes[cut...]))
            events += parser.finish()
            XCTAssertEqual(events, expected, "cut at \(cut)")
        }
    }

    func testByteAtATime() throws {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in stream.utf8 { events += try parser.feed(Data([byte])) }
        XCTAssertEqual(events.count, 3)
    }

    func testUnterminatedLastEventIsDelivered() throws {
        var parser = ServerSentEventParser()
        XCTAssertTrue(try parser.feed(Data("data: [DONE]".utf8)).isEmpty)
        XCTAssertEqual(parser.finish(), [ServerSentEvent(event: nil, data: "[DONE]", id: nil)])
    }

    func testAnthropicDecoding() throws {
        var decoder = StreamDecoder(api: .anthropicMessages)
        XCTAssertEqual(try decoder.decode(.init(event: "content_block_delta",
                                                data: #"{"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}"#)),
                       [.text("Hi")])
        XCTAssertEqual(try decoder.decode(.init(event: "message_delta", data: #"{"delta":{"stop_reason":"end_turn"}}"#)), [])
        XCTAssertEqual(try decoder.decode(.init(event: "message_stop", data: "{}")), [.finished(stopReason: "end_turn")])
        var failing = StreamDecoder(api: .anthropicMessages)
        XCTAssertThrowsError(try failing.decode(.init(event: "error", data: #"{"error":{"type":"overloaded_error"}}"#))) {
            XCTAssertEqual($0 as? ProviderError, .overloaded(retryAfter: nil))
        }
    }

    func testOpenAIDecoding() throws {
        var decoder = StreamDecoder(api: .openAIChatCompletions)
        XCTAssertEqual(try decoder.decode(.init(data: #"{"choices":[{"delta":{"content":"Hi"}}]}"#)), [.text("Hi")])
        XCTAssertEqual(try decoder.decode(.init(data: #"{"choices":[{"delta":{},"finish_reason":"stop"}]}"#)), [])
        XCTAssertEqual(try decoder.decode(.init(data: "[DONE]")), [.finished(stopReason: "stop")])
    }
}
