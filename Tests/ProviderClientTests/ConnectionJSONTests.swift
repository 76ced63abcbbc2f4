import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest

/// Seed: connection JSON contains no credential.
final class ConnectionJSONTests: XCTestCase {
    func testEveryConnectionTypeEncodesWithoutTheCredential() throws {
        let folder = TemporaryFolder()
        let repository = JSONFileConnectionRepository(fileURL: folder.file("connections.json"))
        let harness = Harness(repository: repository)
        let endpoint = try harness.connect("custom", baseURL: URL(string: "https://llm.example.com/v1")!, key: TestSecrets.canary,
                                           api: .openAIChatCompletions, authentication: .header("api-key"),
                                           headers: ["X-Org": .protected(Secret(TestSecrets.protectedHeaderValue)),
                                                     "X-Team": .public("blue")])
        let reference = try CredentialReference.header("app-token", for: "proxy")
        let proxy = EndpointConfiguration.proxy(ProxyConfiguration(name: "proxy", baseURL: URL(string: "https://proxy.example")!,
                                                                   api: .anthropicMessages, provider: .anthropic,
                                                                   appToken: .init(reference: reference)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var texts = [String(decoding: try encoder.encode(endpoint), as: UTF8.self),
                     String(decoding: try encoder.encode(proxy), as: UTF8.self),
                     String(decoding: try encoder.encode(try harness.manager.records()), as: UTF8.self),
                     String(decoding: try encoder.encode(harness.client.confirmations.snapshot), as: UTF8.self),
                     try String(contentsOf: folder.file("connections.json"), encoding: .utf8)]
        texts.append(String(describing: try harness.manager.status(of: "custom")))
        for text in texts { XCTAssertNoSecret(text, "connection JSON") }
        XCTAssertTrue(texts[0].contains("\"mode\":\"direct\""))
        XCTAssertTrue(texts[1].contains("\"mode\":\"proxy\""))
    }

    func testEndpointConfigurationRoundTripsFromConfiguration() throws {
        let json = #"{"mode": "proxy", "name": "edge", "baseURL": "https://proxy.example/ai", "api": "openai-chat-completions", "provider": "openai", "appToken": {"headerName": "X-App-Token", "reference": "edge/header/app-token", "bearer": false}}"#
        let decoded = try JSONDecoder().decode(EndpointConfiguration.self, from: Data(json.utf8))
        guard case .proxy(let proxy) = decoded else { return XCTFail("not a proxy") }
        XCTAssertEqual(proxy.appToken?.headerName, "X-App-Token")
        XCTAssertEqual(proxy.api, .openAIChatCompletions)
        let direct = #"{"mode": "direct", "connectionID": "work", "api": "anthropic-messages", "authentication": "bearer", "publicHeaders": {}}"#
        guard case .direct(let profile) = try JSONDecoder().decode(EndpointConfiguration.self, from: Data(direct.utf8)) else {
            return XCTFail("not direct")
        }
        XCTAssertEqual(profile.authentication, .bearer)
    }
}
