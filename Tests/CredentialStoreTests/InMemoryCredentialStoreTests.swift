@testable import CredentialStore
import XCTest

final class InMemoryCredentialStoreTests: XCTestCase {
    func testFulfilsTheStoreContract() throws {
        try StoreContract.verify(InMemoryCredentialStore())
    }

    func testDumpingTheStoreDoesNotRevealValues() throws {
        let store = InMemoryCredentialStore()
        try store.save(Secret(TestSecrets.canaryKey), for: try .apiKey(for: "a"))
        XCTAssertNoLeak([store])
        XCTAssertTrue(String(describing: store).contains("1 items"), "the description still says something useful")
    }
}
