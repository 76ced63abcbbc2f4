@testable import CredentialStore
import XCTest

final class MaskedHintTests: XCTestCase {
    func testLongKeyShowsBulletsAndLastFourOnly() {
        let hint = Secret(TestSecrets.anthropicKey).maskedHint
        XCTAssertEqual(hint, .masked(lastFour: String(TestSecrets.anthropicKey.suffix(4))))
        XCTAssertEqual(hint.description, "••••" + String(TestSecrets.anthropicKey.suffix(4)))
    }

    func testNeverMoreThanFourCharactersForAnyLength() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_é🔑")
        var generator = SystemRandomNumberGenerator()
        for length in 0...120 {
            let value = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let shown = Secret(value).maskedHint.description
            let revealed = shown.hasPrefix(CredentialDisplay.bullets) ? String(shown.dropFirst(CredentialDisplay.bullets.count)) : ""
            XCTAssertLessThanOrEqual(revealed.count, 4, "length \(length) shows \(revealed.count) characters")
            if !revealed.isEmpty {
                XCTAssertTrue(value.hasSuffix(revealed), "only the end of the key may be shown")
            }
            if length >= 5 {
                XCTAssertFalse(shown.contains(String(value.prefix(5))) && !value.hasSuffix(String(value.prefix(5))),
                               "the start of the key must never be shown")
            }
        }
    }

    func testShortKeysShowConfiguredOnly() {
        for value in ["", "a", "abcd", "abcdefgh", String(repeating: "x", count: Secret.minimumLengthForMaskedHint - 1)] {
            XCTAssertEqual(Secret(value).maskedHint, .configured)
            XCTAssertEqual(Secret(value).maskedHint.description, "Configured")
        }
        XCTAssertEqual(Secret(String(repeating: "x", count: Secret.minimumLengthForMaskedHint)).maskedHint, .masked(lastFour: "xxxx"))
    }

    func testStatusShowsTheMaskedHintNotTheKey() throws {
        let manager = ConnectionManager(store: InMemoryCredentialStore(), repository: InMemoryConnectionRepository())
        try manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.anthropicKey))
        let status = try manager.status(of: "work")
        XCTAssertEqual(status.display.description, "••••" + String(TestSecrets.anthropicKey.suffix(4)))
        XCTAssertFalse(status.description.contains(String(TestSecrets.anthropicKey.suffix(5))))
        XCTAssertNoLeak([status], of: TestSecrets.anthropicKey)
        XCTAssertEqual(try manager.status(of: "nobody").display, .notConfigured)
    }

    func testRevealIsASeparateCall() throws {
        let manager = ConnectionManager(store: InMemoryCredentialStore(), repository: InMemoryConnectionRepository())
        try manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.anthropicKey))
        XCTAssertTrue(try manager.revealAPIKey(for: "work", reason: "copy").reveal() == TestSecrets.anthropicKey)
    }
}
