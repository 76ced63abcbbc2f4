@testable import CredentialStore
import XCTest

/// A failure injected at each rotation step must leave exactly one usable
/// credential and a state that cleanup can finish.
final class RotationTests: XCTestCase {
    private var store: FailingCredentialStore!
    private var repository: FailingConnectionRepository!
    private var manager: ConnectionManager!
    private let oldKey = Secret(TestSecrets.anthropicKey)
    private let newKey = Secret(TestSecrets.anthropicReplacement)

    override func setUpWithError() throws {
        store = FailingCredentialStore()
        repository = FailingConnectionRepository()
        manager = ConnectionManager(store: store, repository: repository)
        try manager.configure(makeRecord(provider: .anthropic), apiKey: oldKey)
    }

    private func apiKeyItems() throws -> [CredentialReference] {
        try store.base.listReferences(for: "work").filter { $0.kind == .apiKey }
    }

    func testReplaceKeyLeavesNoOldItemAndKeepsNewReadable() throws {
        let old = try XCTUnwrap(manager.record(for: "work").credentialReference)
        let result = try manager.rotate("work", newKey: newKey)
        guard case .completed(let newReference) = result else { return XCTFail("rotation did not complete: \(result)") }
        XCTAssertNotEqual(newReference, old)
        XCTAssertEqual(try apiKeyItems(), [newReference], "exactly one API-key item, the new one")
        XCTAssertThrowsError(try store.base.read(old)) { XCTAssertEqual($0 as? CredentialStoreError, .notFound(old)) }
        XCTAssertEqual(try manager.apiKey(for: "work"), newKey)
        XCTAssertEqual(try manager.record(for: "work").credentialReference, newReference)
        XCTAssertEqual(try manager.status(of: "work").pendingCleanup, [])
        let log = store.log
        let saveIndex = try XCTUnwrap(log.firstIndex(of: "save \(newReference)"))
        let deleteIndex = try XCTUnwrap(log.firstIndex(of: "delete \(old)"))
        XCTAssertLessThan(saveIndex, deleteIndex, "the new key is stored before the old one is deleted")
    }

    func testFailureStoringReplacementKeepsOldKey() throws {
        store.fail(.save)
        XCTAssertThrowsError(try manager.rotate("work", newKey: newKey)) { error in
            guard case .rotationFailed(.storeReplacement, _, nil, _)? = error as? ConnectionError else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(try manager.apiKey(for: "work"), oldKey)
        XCTAssertEqual(try apiKeyItems().count, 1)
        XCTAssertEqual(try manager.status(of: "work").state, .configured)
    }

    func testFailureSwitchingConnectionRemovesReplacementAndKeepsOldKey() throws {
        repository.failSaves = 1
        XCTAssertThrowsError(try manager.rotate("work", newKey: newKey)) { error in
            guard case .rotationFailed(.switchConnection, _, nil, _)? = error as? ConnectionError else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(try manager.apiKey(for: "work"), oldKey)
        XCTAssertEqual(try apiKeyItems(), [try XCTUnwrap(manager.record(for: "work").credentialReference)])
    }

    func testFailureSwitchingAndCompensatingLeavesRecoverableOrphan() throws {
        repository.failSaves = 1
        store.fail(.delete)
        var orphan: CredentialReference?
        XCTAssertThrowsError(try manager.rotate("work", newKey: newKey)) { error in
            guard case .rotationFailed(.switchConnection, _, let left?, _)? = error as? ConnectionError else { return XCTFail("got \(error)") }
            orphan = left
        }
        XCTAssertEqual(try manager.apiKey(for: "work"), oldKey, "the connection still uses the old key")
        XCTAssertEqual(try apiKeyItems().count, 2, "the orphan is still there before cleanup")

        store.heal()
        let report = try manager.completePendingCleanup()
        XCTAssertTrue(report.isComplete)
        XCTAssertEqual(report.deleted, [try XCTUnwrap(orphan)])
        XCTAssertEqual(try apiKeyItems(), [try XCTUnwrap(manager.record(for: "work").credentialReference)])
        XCTAssertEqual(try manager.apiKey(for: "work"), oldKey)
    }

    func testFailureDeletingOldKeyIsRecordedAndRetried() throws {
        let old = try XCTUnwrap(manager.record(for: "work").credentialReference)
        store.fail(.delete, where: { $0 == old })
        let result = try manager.rotate("work", newKey: newKey)
        guard case .completedWithPendingCleanup(let newReference, let pending, _) = result else {
            return XCTFail("expected pending cleanup, got \(result)")
        }
        XCTAssertEqual(pending, old)
        XCTAssertEqual(try manager.apiKey(for: "work"), newKey, "the connection uses the new key")
        XCTAssertEqual(try manager.status(of: "work").pendingCleanup, [old], "the leftover is recorded, not forgotten")

        // Still failing: cleanup reports it, keeps it recorded.
        let stillFailing = try manager.completePendingCleanup()
        XCTAssertFalse(stillFailing.isComplete)
        XCTAssertEqual(stillFailing.remaining, [old])
        XCTAssertEqual(try manager.status(of: "work").pendingCleanup, [old])

        store.heal()
        XCTAssertTrue(try manager.completePendingCleanup().isComplete)
        XCTAssertEqual(try apiKeyItems(), [newReference])
        XCTAssertEqual(try manager.status(of: "work").pendingCleanup, [])
        XCTAssertEqual(try manager.apiKey(for: "work"), newKey)
    }

    func testTransientDeleteFailureIsRetriedWithinTheRotation() throws {
        store.fail(.delete, times: 1)
        guard case .completed = try manager.rotate("work", newKey: newKey) else { return XCTFail("the retry should succeed") }
        XCTAssertEqual(try apiKeyItems().count, 1)
    }

    func testRotatingUnknownConnectionFails() {
        XCTAssertThrowsError(try manager.rotate("nobody", newKey: newKey)) { error in
            XCTAssertEqual(error as? ConnectionError, .unknownConnection("nobody"))
        }
    }
}
