@testable import CredentialStore
import XCTest

final class ConnectionRecordTests: XCTestCase {
    private func configured() throws -> (ConnectionManager, InMemoryCredentialStore, ConnectionRecord) {
        let store = InMemoryCredentialStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        let record = try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                                           protectedHeaders: ["X-API-Key": Secret(TestSecrets.canaryHeader),
                                                              "X-Internal-Token": Secret(TestSecrets.canary)])
        return (manager, store, record)
    }

    func testConnectionJSONContainsNoCredential() throws {
        let (manager, _, record) = try configured()
        let json = String(decoding: try JSONEncoder.connections.encode(record), as: UTF8.self)
        XCTAssertFalse(json.contains(TestSecrets.canary), "the serialised connection contains the secret")
        XCTAssertTrue(json.contains("work/api-key/"), "the JSON holds the reference instead")

        let entryJSON = String(decoding: try JSONEncoder.connections.encode(try manager.repository.entry(for: "work")), as: UTF8.self)
        XCTAssertFalse(entryJSON.contains(TestSecrets.canary))

        let decoded = try JSONDecoder.connections.decode(ConnectionRecord.self, from: Data(json.utf8))
        XCTAssertEqual(decoded, record, "the record survives a round trip (backup, migration)")
    }

    func testRecordTypeHasNoFieldThatHoldsASecret() throws {
        let (_, _, record) = try configured()
        let labels = Mirror(reflecting: record).children.compactMap(\.label)
        XCTAssertEqual(Set(labels), ["id", "provider", "displayName", "baseURL", "modelPreferences", "credentialReference", "protectedHeaderNames"])
        for child in Mirror(reflecting: record).children {
            XCTAssertFalse(child.value is Secret, "\(child.label ?? "?") holds a Secret")
        }
    }

    func testProtectedHeadersAreInTheStoreNotInTheRecord() throws {
        let (manager, store, record) = try configured()
        XCTAssertEqual(record.protectedHeaderNames, ["X-API-Key", "X-Internal-Token"])
        XCTAssertEqual(try store.read(.header("X-API-Key", for: "work")), Secret(TestSecrets.canaryHeader))
        XCTAssertEqual(try store.read(.header("X-Internal-Token", for: "work")), Secret(TestSecrets.canary))
        XCTAssertEqual(try manager.protectedHeaders(for: "work"), ["X-API-Key": Secret(TestSecrets.canaryHeader),
                                                                   "X-Internal-Token": Secret(TestSecrets.canary)])
        let json = String(decoding: try JSONEncoder.connections.encode(record), as: UTF8.self)
        XCTAssertTrue(json.contains("X-Internal-Token"))
        XCTAssertFalse(json.contains(TestSecrets.canary))
    }

    func testJSONFileOnDiskContainsNoCredential() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyshape-records-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("connections.json")
        let repository = JSONFileConnectionRepository(fileURL: file)
        let manager = ConnectionManager(store: InMemoryCredentialStore(), repository: repository)
        try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey), protectedHeaders: ["X-API-Key": Secret(TestSecrets.canaryHeader)])
        _ = try manager.rotate("work", newKey: Secret(TestSecrets.canary + "-2"))

        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains(TestSecrets.canary))
        XCTAssertTrue(text.contains("X-API-Key"))
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(permissions?.intValue, 0o600)
        XCTAssertEqual(try JSONFileConnectionRepository(fileURL: file).entry(for: "work")?.state, .replaced, "reloads from disk")
    }

    func testSecretPastedIntoMetadataIsRejected() throws {
        let store = InMemoryCredentialStore()
        let manager = ConnectionManager(store: store, repository: InMemoryConnectionRepository())
        var record = makeRecord()
        record.displayName = "my key is " + TestSecrets.canary
        XCTAssertThrowsError(try manager.configure(record, apiKey: Secret(TestSecrets.canary))) { error in
            XCTAssertEqual(error as? ConnectionError, .secretInMetadata(field: "display name"))
        }
        record = makeRecord(baseURL: "https://llm.example.com/v1?key=" + TestSecrets.canaryHeader)
        XCTAssertThrowsError(try manager.configure(record, apiKey: Secret(TestSecrets.canaryKey),
                                                   protectedHeaders: ["X-API-Key": Secret(TestSecrets.canaryHeader)])) { error in
            XCTAssertEqual(error as? ConnectionError, .secretInMetadata(field: "base URL"))
        }
        record = makeRecord(baseURL: "https://user:pass@llm.example.com/v1")
        XCTAssertThrowsError(try manager.configure(record, apiKey: Secret(TestSecrets.canaryKey))) { error in
            XCTAssertEqual(error as? ConnectionError, .credentialsInURL)
        }
        XCTAssertEqual(try store.listReferences(), [], "nothing is stored for a rejected record")
    }

    func testInvalidIdsAndHeaderNamesAreRejected() {
        let manager = ConnectionManager(store: InMemoryCredentialStore(), repository: InMemoryConnectionRepository())
        XCTAssertThrowsError(try manager.configure(makeRecord("a/b"), apiKey: Secret(TestSecrets.canaryKey))) { error in
            XCTAssertEqual(error as? ConnectionError, .invalidConnectionID("a/b"))
        }
        XCTAssertThrowsError(try manager.configure(makeRecord(), apiKey: Secret(TestSecrets.canaryKey),
                                                   protectedHeaders: ["Bad Header": Secret("v")])) { error in
            XCTAssertEqual(error as? ConnectionError, .invalidHeaderName("Bad Header"))
        }
    }

    func testReferenceRoundTripsAndRejectsGarbage() throws {
        let reference = try CredentialReference.header("X-API-Key", for: "work")
        XCTAssertEqual(CredentialReference(rawValue: reference.rawValue), reference)
        for raw in ["", "work", "work/api-key", "work/other/x", "a/api-key/b/c", "wo rk/api-key/1"] {
            XCTAssertNil(CredentialReference(rawValue: raw), raw)
        }
        XCTAssertNotEqual(try CredentialReference.apiKey(for: "w"), try CredentialReference.apiKey(for: "w"),
                          "each API key save gets a new generation")
    }
}
