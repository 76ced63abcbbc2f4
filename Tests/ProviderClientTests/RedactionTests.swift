import CredentialStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ProviderClient
import XCTest

final class RedactionTests: XCTestCase {
    private func request(headers: [String: String], url: String = "https://llm.example.com/v1/messages") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func testLoggerRedactsAuthorizationAndXAPIKey() {
        let sink = CollectingLogSink()
        let logger = ClientLogger(sink: sink, redactor: Repo.redactor)
        logger.logRequest(request(headers: ["Authorization": "Bearer " + TestSecrets.openAIKey, "x-api-key": TestSecrets.canary,
                                            "api-key": TestSecrets.anthropicKey, "anthropic-version": "2023-06-01"]),
                          sensitiveHeaders: SensitiveHeaders(), connectionID: "work")
        let text = sink.records.map(\.description).joined()
        XCTAssertNoSecret(text, "request log")
        XCTAssertTrue(text.contains("header.Authorization=<redacted>"))
        XCTAssertTrue(text.contains("header.x-api-key=<redacted>") || text.contains("header.X-Api-Key=<redacted>"))
        XCTAssertTrue(text.contains("2023-06-01"), "public headers stay readable")
    }

    func testLoggerRedactsProtectedCustomHeadersByName() {
        let sink = CollectingLogSink()
        let logger = ClientLogger(sink: sink, redactor: .fallbackOnly)
        // A value with no known shape: only the header's classification can catch it.
        let shapeless = "Zq81" + "plmW" + "x0ab"
        logger.logRequest(request(headers: ["X-Org-Routing": shapeless, "X-Team": "blue"]),
                          sensitiveHeaders: SensitiveHeaders(["X-Org-Routing"]), connectionID: "work")
        let text = sink.records.map(\.description).joined()
        XCTAssertFalse(text.contains(shapeless))
        XCTAssertTrue(text.contains("X-Team=blue"))
    }

    func testHeaderNamesThatLookLikeCredentialsAreRedactedEvenIfNotDeclared() {
        let redacted = SensitiveHeaders().redacted(["X-Session-Token": "abc123abc123", "Accept": "json"], with: .fallbackOnly)
        XCTAssertEqual(redacted.first { $0.name == "X-Session-Token" }?.value.text, Redactor.placeholder)
        XCTAssertEqual(redacted.first { $0.name == "Accept" }?.value.text, "json")
    }

    func testFreeTextWithTheScannersRules() {
        let redactor = Repo.redactor
        let text = "401 request failed: Authorization=Bearer \(TestSecrets.anthropicKey) at https://h/x?key=\(TestSecrets.canary) body={\"k\":\"\(TestSecrets.openAIKey)\"}"
        let out = redactor.redact(text).text
        XCTAssertNoSecret(out, "redacted text")
        XCTAssertTrue(out.hasPrefix("401 request failed: Authorization="))
        XCTAssertFalse(redactor.containsCredential(out))
    }

    func testFallbackRedactionWorksWithoutARuleSet() {
        let redactor = Redactor.fallbackOnly
        for text in ["x-api-key: \(TestSecrets.anthropicKey)", "key \(TestSecrets.openAIKey) failed",
                     "Authorization: Bearer abcdefghijklmnop1234", "see sk-ant-api03-shortish-but-still-a-key",
                     "GET /v1/models?api_key=0123456789abcdef HTTP/1.1"] {
            let out = redactor.redact(text).text
            XCTAssertTrue(out.contains(Redactor.placeholder), "nothing redacted in case \(text.prefix(12))")
            XCTAssertNoSecret(out, "fallback output")
        }
        XCTAssertFalse(redactor.containsCredential("the provider is overloaded; retry after 7 s"))
        XCTAssertFalse(redactor.containsCredential("anthropic-version: 2023-06-01"))
    }

    func testCanaryNeedsTheRuleSet() {
        // The canary has no provider shape; the scanner's rules know it, the fallback does not.
        XCTAssertTrue(Repo.redactor.containsCredential("value " + TestSecrets.canary))
        XCTAssertFalse(Redactor.fallbackOnly.containsCredential("value " + TestSecrets.canary))
    }

    func testRedactionIsIdempotentAndLeavesPlainTextAlone() {
        let once = Repo.redactor.redact("token=\(TestSecrets.openAIKey)").text
        XCTAssertEqual(Repo.redactor.redact(once).text, once)
        XCTAssertEqual(Repo.redactor.redact("HTTP 429 from https://api.anthropic.com:443").text,
                       "HTTP 429 from https://api.anthropic.com:443")
    }

    func testLogRecordsCarryOnlyRedactedText() throws {
        let sink = CollectingLogSink()
        let logger = ClientLogger(sink: sink, redactor: Repo.redactor)
        logger.log(.error, .diagnostic, "crash near \(TestSecrets.canary)", connectionID: TestSecrets.anthropicKey,
                   fields: ["x-api-key": TestSecrets.canary])
        logger.breadcrumb("tapped send with \(TestSecrets.openAIKey)")
        let encoded = try JSONEncoder().encode(sink.records)
        XCTAssertNoSecret(String(decoding: encoded, as: UTF8.self), "encoded log records")
        XCTAssertNoSecret(sink.records.map(\.description).joined(), "log descriptions")
    }

    func testLevelFilter() {
        let sink = CollectingLogSink()
        let logger = ClientLogger(sink: sink, redactor: .fallbackOnly, minimumLevel: .warning)
        logger.log(.info, .request, "dropped")
        logger.log(.error, .request, "kept")
        XCTAssertEqual(sink.records.map(\.message.text), ["kept"])
    }

    func testDescribeErrorRedacts() {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "failed with key " + TestSecrets.anthropicKey }
        }
        XCTAssertNoSecret(ClientLogger(sink: nil, redactor: Repo.redactor).describe(Leaky()).text, "described error")
    }
}

final class FallbackRuleTests: XCTestCase {
    func testEveryBuiltInPatternCompiles() {
        XCTAssertEqual(FallbackRules.ruleSet.rules.count, FallbackRules.patterns.count)
    }

    func testSchemeWordAloneIsNotRedacted() {
        let text = "Authorization: Bearer <redacted>"
        XCTAssertEqual(Redactor.fallbackOnly.redact(text).text, text)
        XCTAssertFalse(Redactor.fallbackOnly.containsCredential(text))
    }
}
