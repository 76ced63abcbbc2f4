@testable import CredentialStore
import XCTest

/// The behaviour every `CredentialStore` promises, run against each backend.
enum StoreContract {
    static func verify(_ store: CredentialStore, connection: String = "contract", file: StaticString = #filePath, line: UInt = #line) throws {
        let first = try CredentialReference.apiKey(for: connection)
        let second = try CredentialReference.header("X-API-Key", for: connection)
        let key = Secret(TestSecrets.canaryKey)
        let header = Secret(TestSecrets.canaryHeader)

        XCTAssertThrowsError(try store.read(first), file: file, line: line) { error in
            XCTAssertEqual(error as? CredentialStoreError, .notFound(first), file: file, line: line)
        }
        XCTAssertThrowsError(try store.replace(key, for: first), "replace must not create", file: file, line: line) { error in
            XCTAssertEqual(error as? CredentialStoreError, .notFound(first), file: file, line: line)
        }
        XCTAssertEqual(try store.listReferences(for: connection), [], file: file, line: line)

        try store.save(key, for: first)
        try store.save(header, for: second)
        XCTAssertEqual(try store.read(first), key, file: file, line: line)
        XCTAssertEqual(try store.read(second), header, file: file, line: line)
        XCTAssertEqual(Set(try store.listReferences(for: connection)), [first, second], file: file, line: line)

        // Save overwrites; replace overwrites an existing item.
        let updated = Secret(TestSecrets.anthropicKey)
        try store.save(updated, for: first)
        XCTAssertEqual(try store.read(first), updated, file: file, line: line)
        try store.replace(key, for: first)
        XCTAssertEqual(try store.read(first), key, file: file, line: line)
        XCTAssertEqual(try store.listReferences(for: connection).count, 2, "overwrite must not add items", file: file, line: line)

        try store.delete(first)
        XCTAssertThrowsError(try store.read(first), file: file, line: line)
        XCTAssertNoThrow(try store.delete(first), "deleting a missing item is idempotent", file: file, line: line)
        XCTAssertEqual(try store.listReferences(for: connection), [second], file: file, line: line)
        XCTAssertEqual(try store.read(second), header, "deleting one item leaves the others", file: file, line: line)

        try store.deleteAll()
        XCTAssertEqual(try store.listReferences(), [], file: file, line: line)
        XCTAssertThrowsError(try store.read(second), file: file, line: line)
    }
}
