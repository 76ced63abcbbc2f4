import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest

/// Against scripts/test-provider-server.py on 127.0.0.1: what actually goes over the wire.
final class LoopbackServerTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer(ports: 2, credentialHeaders: ["X-Org", "X-App-Token"])
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    /// No request line and no logged header or body holds any test secret.
    private func assertNothingLeakedOnTheWire(file: StaticString = #filePath, line: UInt = #line) {
        for request in server.requests {
            XCTAssertNoSecret(request.requestLine + "\n" + request.headers.map { $0.joined(separator: ": ") }.joined(separator: "\n")
                              + "\n" + request.body, "request as received", file: file, line: line)
        }
    }

    func testAnthropicKeyArrivesOnlyInXAPIKeyWithTheVersionHeader() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"),
                                           key: TestSecrets.anthropicKey)
        let response = try await harness.client.send(hello, to: endpoint)
        XCTAssertEqual(response.text, "Hello from the test server.")
        XCTAssertEqual(response.stopReason, "end_turn")

        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.requestLine, "POST /ok/v1/messages HTTP/1.1")
        XCTAssertEqual(request.header("anthropic-version"), "2023-06-01")
        XCTAssertNil(request.header("Authorization"))
        let received = try XCTUnwrap(server.received.first)
        XCTAssertEqual(received.credentials.count, 1)
        XCTAssertEqual(received.value("x-api-key"), TestSecrets.anthropicKey)
        assertNothingLeakedOnTheWire()
        XCTAssertNoSecret(harness.logJSONLines + harness.analyticsText, "client outputs")
        XCTAssertEqual(try harness.manager.status(of: "claude").state, .valid)
    }

    func testAnthropicWithBearerAuthentication() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"),
                                           key: TestSecrets.anthropicKey, authentication: .bearer)
        _ = try await harness.client.send(hello, to: endpoint)
        let received = try XCTUnwrap(server.received.first)
        XCTAssertEqual(received.value("Authorization"), "Bearer " + TestSecrets.anthropicKey)
        XCTAssertNil(received.value("x-api-key"))
        XCTAssertEqual(server.requests.first?.header("anthropic-version"), "2023-06-01")
        assertNothingLeakedOnTheWire()
    }

    func testOpenAICompatibleUsesBearerAndNoAnthropicHeader() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("gpt", provider: .openAI, baseURL: server.baseURL("/ok/v1"), key: TestSecrets.openAIKey,
                                           api: .openAIChatCompletions)
        let response = try await harness.client.send(hello, to: endpoint)
        XCTAssertEqual(response.text, "Hello from the test server.")
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.requestLine, "POST /ok/v1/chat/completions HTTP/1.1")
        XCTAssertNil(request.header("anthropic-version"))
        XCTAssertEqual(server.received.first?.value("Authorization"), "Bearer " + TestSecrets.openAIKey)
        assertNothingLeakedOnTheWire()
    }

    func testCustomEndpointSendsPublicAndProtectedHeaders() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("custom", baseURL: server.baseURL("/ok/v1"), key: TestSecrets.canary,
                                           api: .openAIChatCompletions, authentication: .header("X-App-Token"),
                                           headers: ["X-Org": .protected(Secret(TestSecrets.protectedHeaderValue)),
                                                     "X-Team": .public("blue")])
        _ = try await harness.client.send(hello, to: endpoint)
        let received = try XCTUnwrap(server.received.first)
        XCTAssertEqual(received.value("X-App-Token"), TestSecrets.canary)
        XCTAssertEqual(received.value("X-Org"), TestSecrets.protectedHeaderValue)
        XCTAssertEqual(server.requests.first?.header("X-Team"), "blue")
        assertNothingLeakedOnTheWire()
        XCTAssertNoSecret(harness.logJSONLines, "client log")
        XCTAssertTrue(harness.logText.contains("header.X-Team=blue"))
    }

    func testRedirectToAnotherPortArrivesWithoutCredentials() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic,
                                           baseURL: server.baseURL("/redirect-port/\(server.ports[1])/ok"),
                                           key: TestSecrets.anthropicKey, headers: ["X-Org": .protected(Secret(TestSecrets.protectedHeaderValue))])
        // FoundationNetworking drops the POST body on 307, so the target may answer with a
        // parse failure; what matters here is what it received.
        _ = try? await harness.client.send(hello, to: endpoint)
        let received = server.received
        XCTAssertEqual(received.count, 2)
        let first = try XCTUnwrap(received.first { $0.port == server.ports[0] })
        XCTAssertEqual(first.value("x-api-key"), TestSecrets.anthropicKey)
        let second = try XCTUnwrap(received.first { $0.port == server.ports[1] })
        XCTAssertEqual(second.path, "/ok/v1/messages")
        XCTAssertTrue(second.credentials.isEmpty, "credentials followed the redirect to another origin")
        XCTAssertEqual(server.requests.first { $0.port == server.ports[1] }?.header("anthropic-version"), "2023-06-01")
        assertNothingLeakedOnTheWire()
        XCTAssertTrue(harness.logText.contains("redirect from http://127.0.0.1:\(server.ports[0])"))
        XCTAssertTrue(harness.analyticsText.contains("redirect_stripped_credentials"))
    }

    func testRedirectWithinTheSameOriginKeepsCredentials() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/redirect-same/ok"),
                                           key: TestSecrets.anthropicKey)
        _ = try? await harness.client.send(hello, to: endpoint)
        XCTAssertEqual(server.received.count, 2)
        XCTAssertEqual(server.received.last?.value("x-api-key"), TestSecrets.anthropicKey)
    }

    func testUnconfirmedCustomHostReceivesNothing() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("custom", baseURL: server.baseURL("/ok/v1"), key: TestSecrets.canary,
                                           api: .openAIChatCompletions, confirm: false)
        let error = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertEqual(error as? RequestRefusal, .originNotConfirmed(Origin(url: server.baseURL("/"))!))
        let streamed = await captureError { for try await _ in harness.client.stream(hello, to: endpoint) {} }
        XCTAssertEqual(streamed as? RequestRefusal, .originNotConfirmed(Origin(url: server.baseURL("/"))!))
        XCTAssertTrue(server.requests.isEmpty, "the unconfirmed host received a request")
        // Confirming the origin lets the next request through.
        try harness.client.confirmOrigin(of: "custom")
        _ = try await harness.client.send(hello, to: endpoint)
        XCTAssertEqual(server.requests.count, 1)
    }

    func testStreamingAnthropic() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"), key: TestSecrets.anthropicKey)
        var pieces: [String] = []
        var finished: String??
        for try await event in harness.client.stream(hello, to: endpoint) {
            switch event {
            case .text(let text): pieces.append(text)
            case .finished(let reason): finished = reason
            }
        }
        XCTAssertEqual(pieces, ["Hello", " from", " the", " stream", "."])
        XCTAssertEqual(finished, .some("end_turn"))
        XCTAssertEqual(server.requests.first?.header("Accept"), "text/event-stream")
        XCTAssertTrue(server.requests.first?.body.contains("\"stream\":true") ?? false)
        assertNothingLeakedOnTheWire()
    }

    func testStreamingOpenAI() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("gpt", provider: .openAI, baseURL: server.baseURL("/ok/v1"), key: TestSecrets.openAIKey,
                                           api: .openAIChatCompletions)
        var text = ""
        var finished: String??
        for try await event in harness.client.stream(hello, to: endpoint) {
            switch event {
            case .text(let piece): text += piece
            case .finished(let reason): finished = reason
            }
        }
        XCTAssertEqual(text, "Hello from the stream.")
        XCTAssertEqual(finished, .some("stop"))
    }

    func testStreamRequestAnsweredWithPlainJSON() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/plain"), key: TestSecrets.anthropicKey)
        var events: [ChatStreamEvent] = []
        for try await event in harness.client.stream(hello, to: endpoint) { events.append(event) }
        XCTAssertEqual(events, [.text("Hello from the test server."), .finished(stopReason: "end_turn")])
    }

    func testCancellingAStreamStopsIt() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/slow"), key: TestSecrets.anthropicKey)
        let started = Date()
        let consumer = Task { () -> Int in
            var count = 0
            for try await event in harness.client.stream(hello, to: endpoint) {
                if case .text = event { count += 1 }
            }
            return count
        }
        // Let a couple of events arrive, then cancel.
        try await Task.sleep(nanoseconds: 700_000_000)
        consumer.cancel()
        let result = await consumer.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the 10 s stream was not cut short")
        switch result {
        case .success(let count): XCTAssertLessThan(count, 50)
        case .failure(let error): XCTAssertTrue(error is CancellationError, "unexpected \(type(of: error))")
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertTrue(harness.analyticsText.contains("\"cancelled\""))
    }

    func testCancelRequestsForAConnection() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/slow"), key: TestSecrets.anthropicKey)
        let consumer = Task { () -> Error? in
            await captureError { for try await _ in harness.client.stream(hello, to: endpoint) {} }
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        harness.client.cancelRequests(for: "claude")
        let error = await consumer.value
        XCTAssertTrue(error is CancellationError, "unexpected \(String(describing: error.map { type(of: $0) }))")
    }

    func testKeyStoredAfterTheClientWasCreatedIsUsedOnTheNextRequest() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"), key: TestSecrets.anthropicKey)
        _ = try await harness.client.send(hello, to: endpoint)
        _ = try harness.manager.rotate("claude", newKey: Secret(TestSecrets.anthropicReplacement))
        _ = try await harness.client.send(hello, to: endpoint)
        XCTAssertEqual(server.received.map { $0.value("x-api-key") }, [TestSecrets.anthropicKey, TestSecrets.anthropicReplacement])

        // A connection created after the client, too.
        let later = try harness.connect("later", provider: .anthropic, baseURL: server.baseURL("/ok"), key: TestSecrets.anthropicReplacement)
        _ = try await harness.client.send(hello, to: later)
        XCTAssertEqual(server.received.count, 3)
    }

    func testDeletedKeyIsNotSent() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"), key: TestSecrets.anthropicKey)
        _ = try harness.manager.delete("claude")
        let error = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertEqual(error as? RequestRefusal, .unknownConnection("claude"))
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testErrorStatusesMapAndNeverCarryTheKey() async throws {
        let cases: [(Int, ProviderError)] = [(401, .unauthorized), (403, .forbidden), (429, .rateLimited(retryAfter: 7)),
                                             (529, .overloaded(retryAfter: 7)), (500, .server(status: 500)),
                                             (400, .badRequest(status: 400))]
        for (status, expected) in cases {
            let harness = Harness()
            let endpoint = try harness.connect("c\(status)", baseURL: server.baseURL("/status/\(status)"), key: TestSecrets.canary)
            let error = await captureError { try await harness.client.send(hello, to: endpoint) }
            XCTAssertEqual(error as? ProviderError, expected)
            XCTAssertNoSecret(String(describing: error!) + String(reflecting: error!) + error!.localizedDescription, "error \(status)")
            XCTAssertNoSecret(harness.logJSONLines + harness.analyticsText, "outputs for \(status)")
            // A 401 is recorded as request health, and the key is not declared revoked.
            let health = try harness.manager.status(of: "c\(status)")
            XCTAssertEqual(health.state, .configured)
            XCTAssertEqual(health.health.consecutiveFailures, 1)
        }
        XCTAssertTrue(server.received.contains { $0.path.hasPrefix("/status/401") })
    }

    func testEchoedKeyInA401BodyIsScrubbedEvenWithoutRules() async throws {
        // Fallback-only redactor: the canary has no known shape, only the request scope's
        // exact-value scrubbing can catch it.
        let harness = Harness(redactor: .fallbackOnly)
        let endpoint = try harness.connect("c", baseURL: server.baseURL("/status/401"), key: TestSecrets.canary)
        _ = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertTrue(harness.logText.contains("invalid credentials"), "the error body was logged")
        XCTAssertTrue(harness.logText.contains("providerErrorType=authentication_error"))
        XCTAssertNoSecret(harness.logJSONLines, "log")
    }

    func testProxyModeSendsTheAppTokenAndNeverAProviderKey() async throws {
        let harness = Harness()
        // A direct connection exists too; proxy mode must not touch its key.
        _ = try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"), key: TestSecrets.anthropicKey)
        let reference = try CredentialReference.header("app-token", for: "edge")
        try harness.store.save(Secret(TestSecrets.appToken), for: reference)
        let configuration = try JSONDecoder().decode(EndpointConfiguration.self, from: Data("""
        {"mode": "proxy", "name": "edge", "baseURL": "\(server.baseURL("/ok").absoluteString)", "api": "anthropic-messages",
         "provider": "anthropic", "appToken": {"headerName": "X-App-Token", "reference": "edge/header/app-token", "bearer": false}}
        """.utf8))
        _ = try await harness.client.send(hello, to: configuration)
        let received = try XCTUnwrap(server.received.first)
        XCTAssertEqual(received.credentials.count, 1)
        XCTAssertEqual(received.value("X-App-Token"), TestSecrets.appToken)
        XCTAssertNil(received.value("x-api-key"))

        // Without an app token the proxy gets no credential at all.
        let anonymous = EndpointConfiguration.proxy(ProxyConfiguration(name: "open", baseURL: server.baseURL("/ok"),
                                                                       api: .anthropicMessages, provider: .anthropic))
        _ = try await harness.client.send(hello, to: anonymous)
        XCTAssertEqual(server.received.last?.credentials.count, 0)
        assertNothingLeakedOnTheWire()
    }
}
