import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest
import TestSupport

final class AnalyticsTests: XCTestCase {
    let encoder = AnalyticsEncoder(redactor: Repo.redactor)

    func testEventEncodesTypedFieldsOnly() throws {
        let identities = AnalyticsIdentities()
        var event = AnalyticsEvent(name: .requestCompleted, connection: identities.id(for: "work"), provider: .anthropic,
                                   result: .rateLimited, httpStatus: 429, durationMilliseconds: 12, retryAfterSeconds: 7,
                                   model: Repo.redactor.redact("claude-test"))
        event.set(try XCTUnwrap(AnalyticsPropertyName("attempt")), .int(2))
        let object = try XCTUnwrap(JSONReport.object(encoder.encode(event)))
        XCTAssertEqual(object["event"] as? String, "request_completed")
        XCTAssertEqual(object["result"] as? String, "rate_limited")
        XCTAssertEqual(object["provider"] as? String, "anthropic")
        XCTAssertEqual(object["retry_after_s"] as? Int, 7)
        XCTAssertNotEqual(object["connection"] as? String, "work", "the connection id is opaque")
        XCTAssertEqual(identities.id(for: "work"), identities.id(for: "work"))
        XCTAssertNotEqual(identities.id(for: "work"), identities.id(for: "home"))
    }

    /// Seed: the analytics payload rejects credential fields.
    func testPropertyNamesThatCarryCredentialsCannotBeMade() {
        for name in ["api_key", "apikey", "authorization", "x_api_key", "token", "access_token", "secret", "password",
                     "auth_header", "header", "cookie", "session_id", "Bearer", "key"] {
            XCTAssertNil(AnalyticsPropertyName(name), name)
        }
        XCTAssertNotNil(AnalyticsPropertyName("attempt"))
        XCTAssertNotNil(AnalyticsPropertyName("stream_chunks"))
    }

    func testEncodingFailsWhenAFieldWouldCarryACredential() {
        // Text redacted by a weaker redactor (no canary rule) still carries the canary:
        // the encoder, with the full rules, refuses it.
        for model in [TestSecrets.canary, "model " + TestSecrets.canary] {
            let event = AnalyticsEvent(name: .requestCompleted, connection: nil, provider: .openAI, result: .success,
                                       model: Redactor.fallbackOnly.redact(model))
            XCTAssertThrowsError(try encoder.encode(event)) { error in
                XCTAssertEqual(error as? AnalyticsEncodingError, .credentialDetected(field: "event.model"))
                XCTAssertNoSecret(String(describing: error), "encoding error")
            }
        }
        // A custom provider named with a key (`ProviderKind` lowercases, which keeps these
        // shapes; the upper-case-only canary would no longer be the canary).
        for name in [TestSecrets.openAIKey, TestSecrets.anthropicKey] {
            let custom = AnalyticsEvent(name: .requestCompleted, connection: nil, provider: ProviderKind(name), result: .success)
            XCTAssertThrowsError(try encoder.encode(custom)) {
                XCTAssertEqual($0 as? AnalyticsEncodingError, .credentialDetected(field: "event.provider"))
            }
        }
    }

    func testFreeTextOnlyAsRedactedText() throws {
        var event = AnalyticsEvent(name: .requestCompleted, connection: nil, provider: .anthropic, result: .unauthorized)
        // The only way to attach text is through the redactor.
        event.set(try XCTUnwrap(AnalyticsPropertyName("failure")),
                  .text(Repo.redactor.redact("401: x-api-key=\(TestSecrets.canary)")))
        let text = String(decoding: try encoder.encode(event), as: UTF8.self)
        XCTAssertNoSecret(text, "encoded event")
        XCTAssertTrue(text.contains("<redacted>"))
    }

    func testRecorderDropsEventsThatFailAndLogsOnlyTheField() {
        let sink = CollectingAnalyticsSink()
        let logs = CollectingLogSink()
        let recorder = AnalyticsRecorder(sink: sink, logger: ClientLogger(sink: logs, redactor: Repo.redactor))
        recorder.record(AnalyticsEvent(name: .requestCompleted, connection: nil, provider: ProviderKind(TestSecrets.anthropicKey),
                                       result: .success))
        XCTAssertTrue(sink.events.isEmpty)
        XCTAssertEqual(logs.records.count, 1)
        XCTAssertNoSecret(logs.records.map(\.description).joined(), "log")
    }

    func testResultMapping() {
        XCTAssertEqual(AnalyticsResult(ProviderError.rateLimited(retryAfter: nil)), .rateLimited)
        XCTAssertEqual(AnalyticsResult(RequestRefusal.credentialRequired(connectionID: "x")), .credentialRequired)
        XCTAssertEqual(AnalyticsResult(RequestRefusal.credentialInBody), .refused)
        XCTAssertEqual(AnalyticsResult(CancellationError()), .cancelled)
    }
}
