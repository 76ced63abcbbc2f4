@testable import CredentialStore
import XCTest

final class LifecycleTests: XCTestCase {
    private var manager: ConnectionManager!

    override func setUpWithError() throws {
        manager = ConnectionManager(store: InMemoryCredentialStore(), repository: InMemoryConnectionRepository(),
                                    now: { Date(timeIntervalSince1970: 1_000_000) })
    }

    func testNotConfiguredThenConfiguredThenValid() throws {
        XCTAssertEqual(try manager.status(of: "work").state, .notConfigured)
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        XCTAssertEqual(try manager.status(of: "work").state, .configured)
        try manager.recordCheck(.http(200), for: "work")
        XCTAssertEqual(try manager.status(of: "work").state, .valid)
        XCTAssertNotNil(try manager.status(of: "work").health.lastSuccess)
    }

    func testA401RecordsAFailedCheckButDoesNotRevoke() throws {
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        try manager.recordCheck(.http(200), for: "work")
        try manager.recordCheck(.http(401), for: "work")
        try manager.recordCheck(.http(401), for: "work")
        let status = try manager.status(of: "work")
        XCTAssertEqual(status.state, .valid, "storage state is unchanged by request failures")
        XCTAssertEqual(status.health.lastFailure?.reason, .unauthorized)
        XCTAssertEqual(status.health.lastFailure?.httpStatus, 401)
        XCTAssertEqual(status.health.consecutiveFailures, 2)
        XCTAssertNoThrow(try manager.apiKey(for: "work"), "the key stays usable after a 401")

        try manager.recordCheck(.http(200), for: "work")
        XCTAssertEqual(try manager.status(of: "work").health.consecutiveFailures, 0)
    }

    func testFailureReasonClasses() {
        XCTAssertEqual(CheckOutcome.http(403), .failed(.forbidden, httpStatus: 403))
        XCTAssertEqual(CheckOutcome.http(429), .failed(.rateLimited, httpStatus: 429))
        XCTAssertEqual(CheckOutcome.http(503), .failed(.serverError, httpStatus: 503))
        XCTAssertEqual(CheckOutcome.http(418), .failed(.other, httpStatus: 418))
        XCTAssertEqual(CheckOutcome.http(204), .succeeded)
    }

    func testRevokedAndInvalidOnlyByExplicitVerdict() throws {
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        try manager.recordCheck(.failed(.unauthorized, httpStatus: 401), for: "work")
        XCTAssertEqual(try manager.status(of: "work").state, .configured)
        try manager.markRevoked("work")
        XCTAssertEqual(try manager.status(of: "work").state, .revoked)
        XCTAssertThrowsError(try manager.apiKey(for: "work")) { error in
            XCTAssertEqual(error as? ConnectionError, .notUsable("work", .revoked))
        }
        try manager.markInvalid("work")
        XCTAssertEqual(try manager.status(of: "work").state, .invalid)
    }

    func testRotationMarksReplacedAndDeletionMarksDeleted() throws {
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        try manager.markRevoked("work")
        _ = try manager.rotate("work", newKey: Secret(TestSecrets.canary + "-new"))
        XCTAssertEqual(try manager.status(of: "work").state, .replaced)
        XCTAssertNoThrow(try manager.apiKey(for: "work"), "a replaced key is usable")
        try manager.recordCheck(.succeeded, for: "work")
        XCTAssertEqual(try manager.status(of: "work").state, .valid)

        let failing = FailingCredentialStore()
        let manager = ConnectionManager(store: failing, repository: InMemoryConnectionRepository())
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        failing.fail(.delete)
        let report = try manager.delete("work")
        XCTAssertFalse(report.isComplete)
        XCTAssertEqual(try manager.status(of: "work").state, .deleted, "a deletion still owing cleanup shows as deleted")
        failing.heal()
        XCTAssertTrue(try manager.completePendingCleanup().isComplete)
        XCTAssertEqual(try manager.status(of: "work").state, .notConfigured)
    }

    func testConfiguringAnExistingConnectionIsRefused() throws {
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))
        XCTAssertThrowsError(try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey))) { error in
            XCTAssertEqual(error as? ConnectionError, .alreadyExists("work"))
        }
    }
}
