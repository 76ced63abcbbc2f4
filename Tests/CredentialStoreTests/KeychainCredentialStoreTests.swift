@testable import CredentialStore
import XCTest

/// The Keychain logic (query building, OSStatus handling) against a fake
/// that behaves like the Keychain; the `Security` bridge itself only
/// compiles on Apple platforms.
final class KeychainCredentialStoreTests: XCTestCase {
    private let key = Secret(TestSecrets.anthropicKey)

    func testFulfilsTheStoreContract() throws {
        try StoreContract.verify(KeychainCredentialStore(api: FakeKeychain()))
    }

    func testAddSendsGenericPasswordWithMostRestrictiveAccessibility() throws {
        let keychain = FakeKeychain()
        let reference = try CredentialReference.apiKey(for: "work")
        try KeychainCredentialStore(api: keychain).save(key, for: reference)

        let add = try XCTUnwrap(keychain.adds.first)
        XCTAssertEqual(add[.secClass], .constant(.classGenericPassword))
        XCTAssertEqual(add[.service], .string(KeychainConfiguration.defaultService))
        XCTAssertEqual(add[.account], .string(reference.rawValue))
        XCTAssertEqual(add[.accessible], .constant(.accessibleWhenUnlockedThisDeviceOnly))
        XCTAssertEqual(add[.valueData], .data(Data(TestSecrets.anthropicKey.utf8)))
        XCTAssertEqual(keychain.items.first?.attributes[.accessible], .constant(.accessibleWhenUnlockedThisDeviceOnly))
    }

    func testBackgroundAccessUsesAfterFirstUnlockThisDeviceOnly() throws {
        let keychain = FakeKeychain()
        let store = KeychainCredentialStore(configuration: KeychainConfiguration(backgroundAccess: .declared), api: keychain)
        try store.save(key, for: .apiKey(for: "work"))
        XCTAssertEqual(keychain.adds.first?[.accessible], .constant(.accessibleAfterFirstUnlockThisDeviceOnly))
    }

    func testNoSynchronizableAttributeOrAccessGroupUnlessAsked() throws {
        let keychain = FakeKeychain()
        let store = KeychainCredentialStore(api: keychain)
        let reference = try CredentialReference.apiKey(for: "work")
        try store.save(key, for: reference)
        try store.save(key, for: reference)
        _ = try store.read(reference)
        try store.replace(key, for: reference)
        try store.delete(reference)
        XCTAssertGreaterThanOrEqual(keychain.allQueries.count, 6)
        for query in keychain.allQueries {
            XCTAssertNil(query[.synchronizable], "synchronizable sent without being asked: \(query)")
            XCTAssertNil(query[.accessGroup], "access group sent without being asked: \(query)")
        }
    }

    func testSynchronizableAndAccessGroupWhenAsked() throws {
        let keychain = FakeKeychain()
        let store = KeychainCredentialStore(configuration: KeychainConfiguration(synchronizable: true, accessGroup: "TEAM.dev.keyshape"),
                                            api: keychain)
        let reference = try CredentialReference.apiKey(for: "work")
        try store.save(key, for: reference)
        let add = try XCTUnwrap(keychain.adds.first)
        XCTAssertEqual(add[.synchronizable], .bool(true))
        XCTAssertEqual(add[.accessGroup], .string("TEAM.dev.keyshape"))
        XCTAssertEqual(add[.accessible], .constant(.accessibleWhenUnlocked), "synced items cannot be ThisDeviceOnly")
        XCTAssertEqual(try store.read(reference), key)
    }

    func testDuplicateAddUpdatesDataOnlyAndKeepsFirstAccessibility() throws {
        let keychain = FakeKeychain()
        let reference = try CredentialReference.apiKey(for: "work")
        try KeychainCredentialStore(api: keychain).save(key, for: reference)
        // A later save under a configuration with a different accessibility.
        let background = KeychainCredentialStore(configuration: KeychainConfiguration(backgroundAccess: .declared), api: keychain)
        let replacement = Secret(TestSecrets.anthropicReplacement)
        try background.save(replacement, for: reference)

        XCTAssertEqual(keychain.adds.count, 2)
        let (query, attributes) = try XCTUnwrap(keychain.updates.first)
        XCTAssertEqual(Set(attributes.entries.keys), [.valueData], "update must change the data only")
        XCTAssertEqual(query[.account], .string(reference.rawValue))
        XCTAssertNil(query[.valueData])
        XCTAssertEqual(keychain.items.count, 1)
        XCTAssertEqual(keychain.items.first?.attributes[.accessible], .constant(.accessibleWhenUnlockedThisDeviceOnly),
                       "the accessibility of the first save is kept")
        XCTAssertEqual(try background.read(reference), replacement)
    }

    func testMissingEntitlementIsAFailureNeverStored() throws {
        let keychain = FakeKeychain()
        keychain.forcedStatus = KeychainStatus.missingEntitlement
        let store = KeychainCredentialStore(api: keychain)
        let reference = try CredentialReference.apiKey(for: "work")
        XCTAssertThrowsError(try store.save(key, for: reference)) { error in
            guard case .missingEntitlement(.save, let status)? = error as? CredentialStoreError else {
                return XCTFail("expected missingEntitlement, got \(error)")
            }
            XCTAssertEqual(status.code, -34018)
        }
        for call in [{ _ = try store.read(reference) }, { try store.delete(reference) }, { try store.deleteAll() },
                     { _ = try store.listReferences() }, { try store.replace(self.key, for: reference) }] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertEqual((error as? CredentialStoreError)?.backendStatus?.code, -34018)
            }
        }
        XCTAssertTrue(keychain.items.isEmpty)
    }

    func testFailedUpdateAfterDuplicateIsReported() throws {
        let keychain = FakeKeychain()
        let store = KeychainCredentialStore(api: keychain)
        let reference = try CredentialReference.apiKey(for: "work")
        try store.save(key, for: reference)
        keychain.updateStatus = KeychainStatus.missingEntitlement
        XCTAssertThrowsError(try store.save(Secret(TestSecrets.anthropicReplacement), for: reference)) { error in
            guard case .missingEntitlement? = error as? CredentialStoreError else { return XCTFail("got \(error)") }
        }
        keychain.updateStatus = nil
        XCTAssertEqual(try store.read(reference), key, "the old value is still there, not reported as replaced")
    }

    func testItemNotFound() throws {
        let store = KeychainCredentialStore(api: FakeKeychain())
        let reference = try CredentialReference.apiKey(for: "work")
        XCTAssertThrowsError(try store.read(reference)) { XCTAssertEqual($0 as? CredentialStoreError, .notFound(reference)) }
        XCTAssertThrowsError(try store.replace(key, for: reference)) { XCTAssertEqual($0 as? CredentialStoreError, .notFound(reference)) }
        XCTAssertNoThrow(try store.delete(reference))
        XCTAssertNoThrow(try store.deleteAll())
        XCTAssertEqual(try store.listReferences(), [])
    }

    func testInteractionNotAllowedIsReportedAsLocked() throws {
        let keychain = FakeKeychain()
        let store = KeychainCredentialStore(api: keychain)
        let reference = try CredentialReference.apiKey(for: "work")
        try store.save(key, for: reference)
        keychain.locked = true
        XCTAssertThrowsError(try store.read(reference)) { error in
            guard case .locked(.read, let status)? = error as? CredentialStoreError else { return XCTFail("got \(error)") }
            XCTAssertEqual(status.code, -25308)
        }
    }

    func testEveryOtherStatusIsAFailureWithItsCode() throws {
        for status in [KeychainStatus.authFailed, KeychainStatus.param, KeychainStatus.userCanceled, -1] {
            let keychain = FakeKeychain()
            keychain.forcedStatus = status
            XCTAssertThrowsError(try KeychainCredentialStore(api: keychain).save(key, for: .apiKey(for: "w"))) { error in
                XCTAssertEqual(error as? CredentialStoreError, .backendFailure(.save, BackendStatus(backend: .keychain, code: Int(status))))
            }
        }
    }

    func testDeleteAllRemovesOnlyThisServiceIncludingSyncedItems() throws {
        let keychain = FakeKeychain()
        keychain.seed(service: "com.example.other-app", account: "work/api-key/1", data: Data("theirs".utf8))
        let plain = KeychainCredentialStore(api: keychain)
        let synced = KeychainCredentialStore(configuration: KeychainConfiguration(synchronizable: true), api: keychain)
        try plain.save(key, for: .apiKey(for: "a"))
        try synced.save(key, for: .apiKey(for: "b"))
        XCTAssertEqual(try plain.listReferences().count, 2, "listing sees synced and unsynced items")

        try plain.deleteAll()
        XCTAssertEqual(try plain.listReferences(), [])
        XCTAssertEqual(keychain.items.count, 1)
        XCTAssertEqual(keychain.items.first?.string(.service), "com.example.other-app", "another app's item survives")
    }

    func testRevealRequiresUserPresenceWhenConfiguredButReadsDoNot() throws {
        let verifier = FakePresenceVerifier(allow: false)
        let store = KeychainCredentialStore(configuration: KeychainConfiguration(revealRequiresUserPresence: true),
                                            api: FakeKeychain(), presenceVerifier: verifier)
        let reference = try CredentialReference.apiKey(for: "work")
        try store.save(key, for: reference)
        XCTAssertEqual(try store.read(reference), key)
        XCTAssertEqual(verifier.checks, 0, "routine reads never prompt")
        XCTAssertThrowsError(try store.reveal(reference, reason: "copy the key")) { error in
            guard case .userPresenceRequired? = error as? CredentialStoreError else { return XCTFail("got \(error)") }
        }
        verifier.allow = true
        XCTAssertEqual(try store.reveal(reference, reason: "copy the key"), key)
        XCTAssertEqual(verifier.checks, 2)

        let unprotected = KeychainCredentialStore(api: FakeKeychain(), presenceVerifier: verifier)
        try unprotected.save(key, for: reference)
        XCTAssertEqual(try unprotected.reveal(reference, reason: "copy"), key)
        XCTAssertEqual(verifier.checks, 2, "no prompt unless configured")
    }

    func testQueryDescriptionRedactsData() {
        let query = KeychainQuery([.valueData: .data(Data(TestSecrets.canary.utf8)), .account: .string("work/api-key/1")])
        XCTAssertNoLeak([query, KeychainValue.data(Data(TestSecrets.canary.utf8))])
        XCTAssertTrue(query.description.contains("kSecAttrAccount"))
    }
}
