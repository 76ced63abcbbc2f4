@testable import CredentialStore
import XCTest

final class KeyFormatCheckTests: XCTestCase {
    func testAnthropic() {
        XCTAssertEqual(KeyFormatCheck.check(Secret(TestSecrets.anthropicKey), for: .anthropic), .plausible)
        XCTAssertEqual(KeyFormatCheck.check(Secret("sk-ant-" + String(repeating: "a", count: 33)), for: .anthropic), .plausible,
                       "exactly 40 characters is enough")
        XCTAssertEqual(KeyFormatCheck.check(Secret("sk-ant-" + String(repeating: "a", count: 32)), for: .anthropic), .rejected(.tooShort))
        XCTAssertEqual(KeyFormatCheck.check(Secret(TestSecrets.openAIKey), for: .anthropic), .rejected(.wrongPrefix))
        XCTAssertEqual(KeyFormatCheck.check(Secret(TestSecrets.anthropicKey + " extra"), for: .anthropic), .rejected(.containsWhitespace))
        XCTAssertEqual(KeyFormatCheck.check(Secret(""), for: .anthropic), .rejected(.empty))
    }

    func testOpenAI() {
        XCTAssertEqual(KeyFormatCheck.check(Secret(TestSecrets.openAIKey), for: .openAI), .plausible)
        XCTAssertEqual(KeyFormatCheck.check(Secret(TestSecrets.anthropicKey), for: .openAI), .rejected(.belongsToAnotherProvider))
        XCTAssertEqual(KeyFormatCheck.check(Secret("pk-" + String(repeating: "a", count: 50)), for: .openAI), .rejected(.wrongPrefix))
        XCTAssertEqual(KeyFormatCheck.check(Secret("sk-short"), for: .openAI), .rejected(.tooShort))
    }

    func testUnknownProvidersAreNotChecked() {
        for key in ["anything", "with space", "sk-ant-short", TestSecrets.canary] {
            XCTAssertEqual(KeyFormatCheck.check(Secret(key), for: ProviderKind("local-llama")), .notChecked)
        }
        XCTAssertEqual(KeyFormatCheck.check(Secret(""), for: ProviderKind("local-llama")), .rejected(.empty))
    }

    func testProviderKindIsCaseInsensitive() {
        XCTAssertEqual(ProviderKind("Anthropic"), .anthropic)
    }

    func testWrongPasteIsCaughtBeforeAnythingIsStored() throws {
        let store = InMemoryCredentialStore()
        let repository = InMemoryConnectionRepository()
        let manager = ConnectionManager(store: store, repository: repository)
        XCTAssertThrowsError(try manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.openAIKey))) { error in
            XCTAssertEqual(error as? ConnectionError, .formatRejected(.anthropic, .wrongPrefix))
        }
        XCTAssertEqual(try store.listReferences(), [])
        XCTAssertEqual(try repository.allEntries(), [])

        try manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.anthropicKey))
        XCTAssertThrowsError(try manager.rotate("work", newKey: Secret("sk-ant-tooshort"))) { error in
            XCTAssertEqual(error as? ConnectionError, .formatRejected(.anthropic, .tooShort))
        }
        XCTAssertEqual(try store.listReferences().count, 1, "a rejected rotation stores nothing")
        XCTAssertEqual(try manager.apiKey(for: "work"), Secret(TestSecrets.anthropicKey))
    }
}
