#if os(Linux)
@testable import CredentialStore
import Foundation
import XCTest

/// Base for tests that talk to a real Secret Service through libsecret.
///
/// They run only inside `scripts/with-test-keyring` (private D-Bus session,
/// throwaway gnome-keyring), which sets `KEYSHAPE_TEST_KEYRING=1`: a plain
/// `swift test` in a desktop session must not write to the user's real
/// keyring. Without that environment they fail, saying how to run them,
/// unless `KEYSHAPE_SKIP_SECRET_SERVICE=1` asks to skip them.
class SecretServiceTestCase: XCTestCase {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    static let howToRun = "Run them as `scripts/with-test-keyring swift test` (private D-Bus session with a throwaway "
        + "gnome-keyring-daemon), or set KEYSHAPE_SKIP_SECRET_SERVICE=1 to skip them."

    /// A per-test app id: tests cannot see each other's items, and delete-all
    /// of one test cannot hide a bug by wiping another's.
    private(set) var appID = ""
    private var availability: Result<SecretServiceCredentialStore, Error>?

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A skip request is honoured here; an unreachable service is reported
        // by `liveStore()` inside the test, where corelibs XCTest records it
        // as one plain failure (errors thrown from setUp are also logged as skips).
        if ProcessInfo.processInfo.environment["KEYSHAPE_SKIP_SECRET_SERVICE"] == "1" {
            throw XCTSkip("Secret Service tests skipped because KEYSHAPE_SKIP_SECRET_SERVICE=1")
        }
        appID = "keyshape-test-" + UUID().uuidString.prefix(8).lowercased()
        availability = Result { try Self.requireSecretService() }.map { SecretServiceCredentialStore(appID: appID) }
    }

    override func tearDown() {
        if case .success(let store)? = availability { try? store.deleteAll() }
        super.tearDown()
    }

    /// The store under test; throws (failing the test with instructions)
    /// when no private Secret Service is reachable.
    func liveStore() throws -> SecretServiceCredentialStore {
        guard let availability else { throw Unavailable(description: "setUp did not run") }
        return try availability.get()
    }

    static func requireSecretService() throws {
        let environment = ProcessInfo.processInfo.environment
        if environment["KEYSHAPE_SKIP_SECRET_SERVICE"] == "1" {
            throw XCTSkip("Secret Service tests skipped because KEYSHAPE_SKIP_SECRET_SERVICE=1")
        }
        func unavailable(_ reason: String) -> Unavailable {
            Unavailable(description: "Secret Service tests cannot run: \(reason). \(howToRun)")
        }
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else {
            throw unavailable("DBUS_SESSION_BUS_ADDRESS is not set, so no Secret Service is reachable")
        }
        guard environment["KEYSHAPE_TEST_KEYRING"] == "1" else {
            throw unavailable("not inside scripts/with-test-keyring (refusing to use what may be your real keyring)")
        }
        do {
            _ = try SecretServiceCredentialStore(appID: "keyshape-test-probe").listReferences()
        } catch {
            throw unavailable("the Secret Service did not answer (\(error))")
        }
    }
}
#endif
