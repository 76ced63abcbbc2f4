@testable import CredentialStore
import XCTest

final class DeletionTests: XCTestCase {
    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ event: String) { lock.critical { list.append(event) } }
        var all: [String] { lock.critical { list } }
    }

    private var store: FailingCredentialStore!
    private var repository: InMemoryConnectionRepository!
    private var events: Events!
    private var manager: ConnectionManager!

    override func setUpWithError() throws {
        store = FailingCredentialStore()
        repository = InMemoryConnectionRepository()
        let events = Events()
        self.events = events
        manager = ConnectionManager(store: store, repository: repository,
                                    hooks: ConnectionHooks(cancelPendingWork: { events.append("cancel \($0)") },
                                                           clearCachedAuthState: { events.append("clear \($0)") }))
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                              protectedHeaders: ["X-API-Key": Secret(TestSecrets.canaryHeader), "X-Internal-Token": Secret("t")])
        try manager.configure(makeRecord("other"), apiKey: Secret(TestSecrets.canaryKey))
    }

    func testDeleteRemovesRecordKeyHeadersAndRunsHooks() throws {
        let report = try manager.delete("work")
        XCTAssertTrue(report.isComplete, report.description)
        XCTAssertEqual(report.deleted.count, 3)
        XCTAssertEqual(try store.base.listReferences(for: "work"), [], "no item of the connection is left")
        XCTAssertNil(try repository.entry(for: "work"), "no record or tombstone is left")
        XCTAssertEqual(try manager.status(of: "work").state, .notConfigured)
        XCTAssertEqual(events.all, ["cancel work", "clear work"])
        XCTAssertEqual(try manager.apiKey(for: "other"), Secret(TestSecrets.canaryKey), "other connections are untouched")
        XCTAssertEqual(try store.base.listReferences(for: "other").count, 1)
    }

    func testPendingWorkIsCancelledBeforeAnythingIsDeleted() throws {
        let store = self.store!
        let events = Events()
        let manager = ConnectionManager(store: store, repository: repository,
                                        hooks: ConnectionHooks(cancelPendingWork: { _ in events.append("cancel at \(store.log.count)") }))
        let before = store.log.count
        _ = try manager.delete("work")
        XCTAssertEqual(events.all, ["cancel at \(before)"], "cancel runs before any store call of the deletion")
    }

    func testPartialFailureIsReportedRecordedAndRetried() throws {
        let header = try CredentialReference.header("X-Internal-Token", for: "work")
        store.fail(.delete, where: { $0 == header })
        let report = try manager.delete("work")
        XCTAssertFalse(report.isComplete)
        XCTAssertEqual(report.remaining, [header])
        XCTAssertEqual(report.failures.count, 1)
        XCTAssertEqual(try store.base.listReferences(for: "work"), [header], "the rest was deleted")
        XCTAssertThrowsError(try manager.apiKey(for: "work"), "the connection is gone for the user")
        XCTAssertFalse(try manager.records().map(\.id).contains("work"))
        XCTAssertEqual(try repository.entry(for: "work")?.pendingDeletion, [header], "the leftover is recorded")
        XCTAssertEqual(events.all, ["cancel work", "clear work"], "auth state is cleared even when an item remains")
        XCTAssertThrowsError(try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))) { error in
            XCTAssertEqual(error as? ConnectionError, .pendingCleanup("work"))
        }

        store.heal()
        let retry = try manager.completePendingCleanup()
        XCTAssertTrue(retry.isComplete)
        XCTAssertEqual(retry.deleted, [header])
        XCTAssertEqual(try store.base.listReferences(for: "work"), [])
        XCTAssertNil(try repository.entry(for: "work"))
    }

    func testTransientFailureIsRetriedImmediately() throws {
        store.fail(.delete, times: 1)
        let report = try manager.delete("work")
        XCTAssertTrue(report.isComplete)
        XCTAssertEqual(try store.base.listReferences(for: "work"), [])
    }

    func testDeleteFindsItemsLeftByAnInterruptedRotation() throws {
        let orphan = try CredentialReference.apiKey(for: "work")
        try store.base.save(Secret("leftover"), for: orphan)
        XCTAssertTrue(try manager.delete("work").isComplete)
        XCTAssertEqual(try store.base.listReferences(for: "work"), [])
    }

    func testDeleteOfItemsWithoutARecord() throws {
        try store.base.save(Secret("leftover"), for: .apiKey(for: "ghost"))
        XCTAssertTrue(try manager.delete("ghost").isComplete)
        XCTAssertEqual(try store.base.listReferences(for: "ghost"), [])
        XCTAssertThrowsError(try manager.delete("ghost")) { error in
            XCTAssertEqual(error as? ConnectionError, .unknownConnection("ghost"))
        }
    }

    func testDeleteAllRemovesEveryOwnedItemAndRecord() throws {
        try store.base.save(Secret("orphan"), for: .apiKey(for: "ghost"))
        let report = try manager.deleteAll()
        XCTAssertTrue(report.isComplete, report.description)
        XCTAssertEqual(try store.base.listReferences(), [])
        XCTAssertEqual(try repository.allEntries(), [])
        XCTAssertEqual(Set(events.all), ["cancel work", "cancel other", "clear work", "clear other"])
    }

    func testDeleteAllFailureIsRecoverable() throws {
        store.fail(.deleteAll)
        let report = try manager.deleteAll()
        XCTAssertFalse(report.isComplete)
        XCTAssertEqual(report.remaining.count, 4)
        XCTAssertEqual(try manager.records(), [], "no connection is usable after delete-all, even a partial one")
        XCTAssertTrue(try repository.allEntries().allSatisfy(\.isTombstone))

        store.heal()
        XCTAssertTrue(try manager.completePendingCleanup().isComplete)
        XCTAssertEqual(try store.base.listReferences(), [])
        XCTAssertEqual(try repository.allEntries(), [])
    }

    func testDeletingUnknownConnectionFails() {
        XCTAssertThrowsError(try manager.delete("nobody")) { error in
            XCTAssertEqual(error as? ConnectionError, .unknownConnection("nobody"))
        }
    }
}
