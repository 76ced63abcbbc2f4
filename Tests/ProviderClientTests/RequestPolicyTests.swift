import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest

/// Refusals happen before anything is sent: these tests point at a port nothing listens
/// on (or at unresolvable hosts), so any attempt to send would surface as a transport
/// error instead of the expected refusal.
final class RequestPolicyTests: XCTestCase {
    func testCredentialNamedURLParametersAreRefused() throws {
        for (query, kind) in [("?api_key=abc", SensitiveParameterKind.key), ("?key=abc", .key), ("?token=1", .token),
                              ("?access_token=1", .token), ("#access_token=1", .token), ("?x=1&apiKey=2", .key),
                              ("?client_secret=z", .secret), ("?password=p", .password), ("#/cb?id_token=t", .token)] {
            let url = URL(string: "https://llm.example.com/v1" + query)!
            XCTAssertThrowsError(try URLCredentialPolicy.checkShape(of: url)) { error in
                XCTAssertEqual(error as? RequestRefusal, .credentialInURL(.sensitiveParameter(kind)), query)
            }
        }
        XCTAssertNoThrow(try URLCredentialPolicy.checkShape(of: URL(string: "https://x.example/v1?api-version=2024-06-01")!))
        XCTAssertThrowsError(try URLCredentialPolicy.checkShape(of: URL(string: "https://u:p@x.example/v1")!)) {
            XCTAssertEqual($0 as? RequestRefusal, .credentialInURL(.userInfo))
        }
    }

    func testTheKeyItselfInTheURLIsRefused() {
        var scope = CredentialScope()
        scope.add(header: "x-api-key", value: Secret(TestSecrets.canary))
        for url in ["https://x.example/v1/\(TestSecrets.canary)/messages", "https://x.example/v1?q=\(TestSecrets.canary)",
                    "https://x.example/v1#\(TestSecrets.canary)",
                    "https://x.example/v1?q=" + TestSecrets.canary.replacingOccurrences(of: "_", with: "%5F")] {
            XCTAssertThrowsError(try URLCredentialPolicy.check(URL(string: url)!, against: scope)) {
                XCTAssertEqual($0 as? RequestRefusal, .credentialInURL(.credentialValue))
                XCTAssertNoSecret(String(describing: $0), "refusal")
            }
        }
    }

    func testProxyTokenInTheProxyURLIsRefusedBeforeSending() async throws {
        let harness = Harness()
        let reference = try CredentialReference.header("app-token", for: "proxy")
        try harness.store.save(Secret(TestSecrets.appToken), for: reference)
        let proxy = ProxyConfiguration(name: "proxy", baseURL: URL(string: "http://127.0.0.1:9/p/\(TestSecrets.appToken)")!,
                                       api: .anthropicMessages, provider: .anthropic,
                                       appToken: .init(reference: reference))
        let error = await captureError { try await harness.client.send(hello, to: .proxy(proxy)) }
        XCTAssertEqual(error as? RequestRefusal, .credentialInURL(.credentialValue))
        XCTAssertNoSecret(harness.logJSONLines + harness.analyticsText, "log and analytics")
    }

    func testKeyPastedIntoAMessageIsNotSent() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("work", baseURL: URL(string: "http://127.0.0.1:9")!, key: TestSecrets.canary)
        let pasted = ChatRequest(model: "m", messages: [.user("my key is \(TestSecrets.canary), is that right?")])
        let error = await captureError { try await harness.client.send(pasted, to: endpoint) }
        XCTAssertEqual(error as? RequestRefusal, .credentialInBody)
        XCTAssertNoSecret(harness.logJSONLines, "log")
    }

    func testPlainHTTPToANonLoopbackHostIsRefused() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("lan", baseURL: URL(string: "http://192.0.2.10:8080/v1")!, key: TestSecrets.canary)
        let error = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertEqual(error as? RequestRefusal, .insecureTransport(Origin(scheme: "http", host: "192.0.2.10", port: 8080)))
    }

    func testUnconfirmedCustomOriginIsRefused() async throws {
        let harness = Harness()
        let endpoint = try harness.connect("custom", baseURL: URL(string: "https://llm.invalid/v1")!, key: TestSecrets.canary,
                                           confirm: false)
        let error = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertEqual(error as? RequestRefusal, .originNotConfirmed(Origin(scheme: "https", host: "llm.invalid", port: 443)))
        // Confirming another port of the same host does not count.
        harness.client.confirmations.confirm(Origin(scheme: "https", host: "llm.invalid", port: 8443), for: "custom")
        let again = await captureError { try await harness.client.send(hello, to: endpoint) }
        XCTAssertEqual(again as? RequestRefusal, .originNotConfirmed(Origin(scheme: "https", host: "llm.invalid", port: 443)))
    }

    func testWellKnownProviderOriginsNeedNoConfirmation() {
        let confirmations = OriginConfirmations()
        XCTAssertTrue(confirmations.allowsCredentials(to: Origin(url: URL(string: "https://api.anthropic.com/v1")!)!, for: "a"))
        XCTAssertFalse(confirmations.allowsCredentials(to: Origin(url: URL(string: "http://api.anthropic.com/v1")!)!, for: "a"))
        XCTAssertFalse(confirmations.allowsCredentials(to: Origin(url: URL(string: "https://api.anthropic.com:8443")!)!, for: "a"))
    }

    func testLoopbackDetection() {
        for host in ["http://127.0.0.1:1", "http://localhost:2", "http://[::1]:3", "http://127.8.9.10"] {
            XCTAssertEqual(Origin(url: URL(string: host)!)?.isLoopback, true, host)
        }
        for host in ["http://127.0.0.1.nip.io", "http://10.0.0.1", "http://example.com", "http://1127.0.0.1"] {
            XCTAssertEqual(Origin(url: URL(string: host)!)?.isLoopback, false, host)
        }
    }

    func testPublicHeaderNamedLikeACredentialIsRejectedAtConfiguration() {
        let harness = Harness()
        let record = ConnectionRecord(id: "h", provider: ProviderKind("custom"), displayName: "h",
                                      baseURL: URL(string: "https://llm.example.com")!)
        XCTAssertThrowsError(try ConnectionProfile.configure(record, apiKey: Secret(TestSecrets.canary),
                                                             headers: ["X-Api-Token": .public("abc")], in: harness.manager))
    }

    func testMissingCredentialIsCredentialRequired() async throws {
        let harness = Harness()
        try harness.repository.save(ConnectionEntry(record: ConnectionRecord(id: "r", provider: .anthropic, displayName: "r",
                                                                             baseURL: URL(string: "https://api.anthropic.com")!),
                                                    state: .notConfigured))
        let profile = ConnectionProfile(connectionID: "r", api: .anthropicMessages)
        let error = await captureError { try await harness.client.send(hello, to: .direct(profile)) }
        XCTAssertEqual(error as? RequestRefusal, .credentialRequired(connectionID: "r"))
        XCTAssertEqual(String(describing: error!), "credential required for r")
    }

    func testEndpointURLJoinsBaseAndPath() throws {
        XCTAssertEqual(try RequestBoundary.endpointURL(base: URL(string: "https://api.anthropic.com")!, path: "v1/messages").absoluteString,
                       "https://api.anthropic.com/v1/messages")
        XCTAssertEqual(try RequestBoundary.endpointURL(base: URL(string: "https://api.openai.com/v1/")!, path: "chat/completions").absoluteString,
                       "https://api.openai.com/v1/chat/completions")
        XCTAssertEqual(try RequestBoundary.endpointURL(base: URL(string: "https://a.example/openai?api-version=1")!,
                                                       path: "chat/completions").absoluteString,
                       "https://a.example/openai/chat/completions?api-version=1")
    }
}
