@testable import CredentialStore
import XCTest

final class SecretRedactionTests: XCTestCase {
    func testEveryRenderingOfASecretIsRedacted() {
        let secret = Secret(TestSecrets.canary)
        for text in renderings(of: secret) {
            XCTAssertTrue(text.contains(Secret.redactedPlaceholder), "a rendering lacks the placeholder")
        }
        XCTAssertEqual("\(secret)", "<redacted>")
        XCTAssertEqual(secret.description, "<redacted>")
        XCTAssertEqual(secret.debugDescription, "<redacted>")
        XCTAssertTrue(Mirror(reflecting: secret).children.isEmpty, "reflection must not reach the storage")
        XCTAssertNoLeak([secret, [secret], Optional(secret) as Any, ["k": secret], (1, secret)])
    }

    func testRevealIsExplicitAndExact() {
        let secret = Secret(TestSecrets.canary)
        XCTAssertTrue(secret.reveal() == TestSecrets.canary)
        XCTAssertTrue(secret.withRevealedValue { $0 == TestSecrets.canary })
        XCTAssertEqual(secret.characterCount, TestSecrets.canary.count)
    }

    func testSecretIsNotCodable() {
        let secret: Any = Secret(TestSecrets.canary)
        XCTAssertFalse(secret is Encodable, "a Secret must never be serialisable")
        XCTAssertFalse(secret is Decodable)
    }

    func testEqualityComparesFullValue() {
        XCTAssertEqual(Secret("abcdef"), Secret("abcdef"))
        XCTAssertNotEqual(Secret("abcdef"), Secret("abcdeg"))
        XCTAssertNotEqual(Secret("abc"), Secret("abcdef"), "a prefix is not equal")
        XCTAssertNotEqual(Secret(""), Secret("a"))
    }

    func testUTF8DecodingRejectsInvalidBytes() {
        XCTAssertNil(Secret(utf8: [0xFF, 0xFE]))
        XCTAssertEqual(Secret(utf8: Array("key".utf8)), Secret("key"))
    }

    func testErrorsOfEveryKindNeverContainTheValue() throws {
        let reference = try CredentialReference.apiKey(for: "work")
        let status = BackendStatus(backend: .secretService, code: 2, domain: "secret-error", message: "locked")
        let errors: [Error] = [
            CredentialStoreError.notFound(reference), CredentialStoreError.invalidReference(reason: "x"),
            CredentialStoreError.serviceUnavailable(.save, status), CredentialStoreError.locked(.read, status),
            CredentialStoreError.missingEntitlement(.save, status), CredentialStoreError.userPresenceRequired(nil),
            CredentialStoreError.unexpectedData(reference), CredentialStoreError.backendFailure(.delete, status),
            ConnectionError.formatRejected(.anthropic, .tooShort), ConnectionError.secretInMetadata(field: "display name"),
            ConnectionError.rotationFailed(step: .switchConnection, inUse: reference, orphan: reference, underlying: "x"),
        ]
        XCTAssertNoLeak(errors)
    }

    func testErrorsThrownWhileHandlingTheCanaryNeverContainIt() throws {
        var collected: [Error] = []
        // Keychain failures, with the canary as the value being saved.
        for status in [KeychainStatus.missingEntitlement, KeychainStatus.interactionNotAllowed, KeychainStatus.authFailed] {
            let keychain = FakeKeychain()
            keychain.forcedStatus = status
            let store = KeychainCredentialStore(api: keychain)
            do { try store.save(Secret(TestSecrets.canary), for: .apiKey(for: "a")) } catch { collected.append(error) }
        }
        // Manager failures: format, metadata, rotation.
        let failing = FailingCredentialStore()
        let manager = ConnectionManager(store: failing, repository: InMemoryConnectionRepository())
        do {
            try manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.canary))
        } catch { collected.append(error) }
        var leaky = makeRecord("leaky")
        leaky.displayName = "mine " + TestSecrets.canary
        do { try manager.configure(leaky, apiKey: Secret(TestSecrets.canary)) } catch { collected.append(error) }
        try manager.configure(makeRecord("ok"), apiKey: Secret(TestSecrets.canaryKey))
        failing.fail(.save)
        do { _ = try manager.rotate("ok", newKey: Secret(TestSecrets.canary)) } catch { collected.append(error) }
        XCTAssertEqual(collected.count, 6, "every failing call above must throw")
        XCTAssertNoLeak(collected)
    }

    func testModelTypesNeverRenderTheValue() throws {
        let store = InMemoryCredentialStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        let record = try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                                           protectedHeaders: ["X-Internal-Token": Secret(TestSecrets.canaryHeader)])
        let status = try manager.status(of: "work")
        let rotation = try manager.rotate("work", newKey: Secret(TestSecrets.canary + "-rotated"))
        let report = try manager.delete("work")
        var query = KeychainQuery([.valueData: .data(Data(TestSecrets.canary.utf8))])
        query[.account] = .string("work/api-key/1")
        XCTAssertNoLeak([record, status, rotation, report, query, manager, store, KeyFormatCheck.check(Secret(TestSecrets.canary), for: .anthropic),
                         Secret(TestSecrets.canaryKey).maskedHint])
    }
}
