#if os(Linux)
@testable import CredentialStore
import Foundation
import XCTest

/// Real libsecret calls against the throwaway gnome-keyring-daemon.
final class SecretServiceCredentialStoreTests: SecretServiceTestCase {
    /// A second instance shares nothing in memory with `store`, so reading
    /// through it proves the value went through the daemon.
    private var fresh: SecretServiceCredentialStore { SecretServiceCredentialStore(appID: appID) }

    func testFulfilsTheStoreContract() throws {
        let store = try liveStore()
        try StoreContract.verify(store)
    }

    func testStoreLookUpClearThroughTheDaemon() throws {
        let store = try liveStore()
        let reference = try CredentialReference.apiKey(for: "work")
        let value = Secret(TestSecrets.anthropicKey + "-päss-🔑")
        try store.save(value, for: reference)
        XCTAssertEqual(try fresh.read(reference), value, "the value round-trips through the Secret Service")
        try store.delete(reference)
        XCTAssertThrowsError(try fresh.read(reference)) { XCTAssertEqual($0 as? CredentialStoreError, .notFound(reference)) }
    }

    func testSearchByAttributesListsExactlyTheAppsReferences() throws {
        let store = try liveStore()
        let references = [try CredentialReference.apiKey(for: "a"), try .header("X-API-Key", for: "a"), try .apiKey(for: "b")]
        for reference in references { try store.save(Secret(TestSecrets.canaryKey), for: reference) }
        XCTAssertEqual(try fresh.listReferences(), references.sorted())
        XCTAssertEqual(Set(try fresh.listReferences(for: "a")), Set(references.prefix(2)))
        XCTAssertEqual(try SecretServiceCredentialStore(appID: appID + "-else").listReferences(), [], "other apps see nothing")
    }

    func testConnectionDeletionRemovesTheSecretStoreItems() throws {
        let store = try liveStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        let record = try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                                           protectedHeaders: ["X-API-Key": Secret(TestSecrets.canaryHeader)])
        let keyReference = try XCTUnwrap(record.credentialReference)
        let headerReference = try record.headerReference("X-API-Key")
        XCTAssertEqual(try fresh.read(keyReference), Secret(TestSecrets.canaryKey), "precondition: the item exists in the daemon")

        let report = try manager.delete("work")
        XCTAssertTrue(report.isComplete, report.description)
        for reference in [keyReference, headerReference] {
            XCTAssertThrowsError(try fresh.read(reference), "\(reference) is still in the Secret Service") { error in
                XCTAssertEqual(error as? CredentialStoreError, .notFound(reference))
            }
        }
        XCTAssertEqual(try fresh.listReferences(), [])
    }

    func testReplaceKeyFlowLeavesNoOldItemAndKeepsTheNewOneReadable() throws {
        let store = try liveStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        let old = try XCTUnwrap(manager.configure(makeRecord(provider: .anthropic), apiKey: Secret(TestSecrets.anthropicKey)).credentialReference)
        let result = try manager.rotate("work", newKey: Secret(TestSecrets.anthropicReplacement))
        guard case .completed(let new) = result else { return XCTFail("rotation incomplete: \(result)") }

        XCTAssertThrowsError(try fresh.read(old)) { XCTAssertEqual($0 as? CredentialStoreError, .notFound(old)) }
        XCTAssertEqual(try fresh.read(new), Secret(TestSecrets.anthropicReplacement))
        XCTAssertEqual(try fresh.listReferences(for: "work"), [new])
        XCTAssertEqual(try manager.apiKey(for: "work"), Secret(TestSecrets.anthropicReplacement))
    }

    func testDeleteAllRemovesOwnedItemsAndNoneOfOthers() throws {
        let store = try liveStore()
        let shared = try CredentialReference.apiKey(for: "work", generation: "1")
        // Same schema, another app; and another schema with our very attributes.
        let otherApp = SecretServiceCredentialStore(appID: appID + "-other-app")
        let otherSchema = SecretServiceCredentialStore(appID: appID, schemaName: "org.example.OtherApp.Credential")
        defer {
            try? otherApp.deleteAll()
            try? otherSchema.deleteAll()
        }
        try otherApp.save(Secret("theirs-1"), for: shared)
        try otherSchema.save(Secret("theirs-2"), for: shared)

        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey), protectedHeaders: ["X-API-Key": Secret("h")])
        try manager.configure(makeRecord("second"), apiKey: Secret(TestSecrets.canaryKey))
        try store.save(Secret("orphan"), for: shared)
        XCTAssertEqual(try fresh.listReferences().count, 4)

        let report = try manager.deleteAll()
        XCTAssertTrue(report.isComplete, report.description)
        XCTAssertEqual(try fresh.listReferences(), [], "every app-owned item is gone")
        XCTAssertThrowsError(try fresh.read(shared))
        XCTAssertEqual(try otherApp.read(shared), Secret("theirs-1"), "another app's item survives")
        XCTAssertEqual(try otherSchema.read(shared), Secret("theirs-2"), "another schema's item survives")
    }

    func testProtectedHeadersLiveInTheSecretServiceNotInTheRecord() throws {
        let store = try liveStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        let record = try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                                           protectedHeaders: ["X-Internal-Token": Secret(TestSecrets.canaryHeader)])
        XCTAssertEqual(try fresh.read(record.headerReference("X-Internal-Token")), Secret(TestSecrets.canaryHeader))
        let json = String(decoding: try JSONEncoder.connections.encode(record), as: UTF8.self)
        XCTAssertFalse(json.contains(TestSecrets.canary))
        XCTAssertTrue(json.contains("X-Internal-Token"))
    }

    func testReplaceOfMissingItemDoesNotCreateIt() throws {
        let store = try liveStore()
        let reference = try CredentialReference.apiKey(for: "work")
        XCTAssertThrowsError(try store.replace(Secret("x"), for: reference))
        XCTAssertEqual(try fresh.listReferences(), [])
    }
}
#endif
