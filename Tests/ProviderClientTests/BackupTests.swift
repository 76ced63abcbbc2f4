import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest
import TestSupport

final class BackupTests: XCTestCase {
    private func populated() throws -> (Harness, [ConnectionProfile], [Conversation]) {
        let harness = Harness()
        let anthropic = try harness.connect("claude", provider: .anthropic, baseURL: URL(string: "https://api.anthropic.com")!,
                                            key: TestSecrets.anthropicKey)
        let custom = try harness.connect("custom", baseURL: URL(string: "https://llm.example.com/v1")!, key: TestSecrets.canary,
                                         api: .openAIChatCompletions,
                                         headers: ["X-Org": .protected(Secret(TestSecrets.protectedHeaderValue)),
                                                   "X-Team": .public("blue")])
        let profiles = [anthropic, custom].compactMap { endpoint -> ConnectionProfile? in
            if case .direct(let profile) = endpoint { return profile }
            return nil
        }
        let conversations = [Conversation(title: "Trip", connectionID: "claude",
                                          messages: [.user("Plan a trip"), .assistant("Sure."),
                                                     .user("oops, my key: \(TestSecrets.anthropicKey)")])]
        return (harness, profiles, conversations)
    }

    /// Seed: the backup archive contains no credential.
    func testArchiveContainsNoCredentialAndSaysSo() throws {
        let (harness, profiles, conversations) = try populated()
        let service = BackupService(manager: harness.manager, logger: harness.logger)
        let data = try service.export(conversations: conversations, profiles: profiles).encoded()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertNoSecret(text, "backup archive")
        let object = try XCTUnwrap(JSONReport.object(data))
        let connections = try XCTUnwrap(object["connections"] as? [[String: Any]])
        XCTAssertEqual(connections.count, 2)
        for connection in connections {
            XCTAssertTrue(connection.keys.contains("credential"))
            XCTAssertTrue(connection["credential"] is NSNull)
            XCTAssertNil(connection["credentialReference"], "references are device-local and stay out")
        }
        XCTAssertTrue(text.contains("X-Org"), "protected header names are kept, values are not")
        XCTAssertTrue(text.contains("Plan a trip"))
    }

    func testRestoreNeedsCredentialsAndImportsNothingIntoTheStore() throws {
        let (source, profiles, conversations) = try populated()
        let data = try BackupService(manager: source.manager, logger: source.logger)
            .export(conversations: conversations, profiles: profiles).encoded()

        let target = Harness()
        let service = BackupService(manager: target.manager, logger: target.logger)
        let report = try service.restore(try BackupArchive.decode(data))
        XCTAssertEqual(Set(report.restored), ["claude", "custom"])
        XCTAssertEqual(report.conversations.count, 1)
        XCTAssertEqual(Set(report.profiles.map(\.connectionID)), ["claude", "custom"])
        XCTAssertTrue(try target.store.listReferences().isEmpty, "nothing reached the secret store")
        for id in ["claude", "custom"] {
            XCTAssertEqual(try service.readiness(of: id), .credentialRequired)
            XCTAssertEqual(try service.readiness(of: id).description, "credential required")
            XCTAssertTrue(target.client.confirmations.snapshot.isEmpty, "confirmations are not restored")
        }
    }

    func testCredentialsInATamperedArchiveAreIgnored() throws {
        let json = """
        {"format": 1, "createdAt": "2024-01-01T00:00:00Z", "conversations": [],
         "connections": [{"id": "x", "provider": "anthropic", "displayName": "X", "baseURL": "https://api.anthropic.com",
                          "credential": "\(TestSecrets.anthropicKey)"}]}
        """
        let target = Harness()
        let service = BackupService(manager: target.manager, logger: target.logger)
        let report = try service.restore(try BackupArchive.decode(Data(json.utf8)))
        XCTAssertEqual(report.ignoredCredentials, ["x"])
        XCTAssertTrue(try target.store.listReferences().isEmpty)
        XCTAssertEqual(try service.readiness(of: "x"), .credentialRequired)
        XCTAssertNoSecret(target.logJSONLines, "restore log")
    }

    func testProvidingTheCredentialAfterRestoreMakesTheConnectionReady() throws {
        let (source, profiles, conversations) = try populated()
        let data = try BackupService(manager: source.manager, logger: source.logger)
            .export(conversations: conversations, profiles: profiles).encoded()
        let target = Harness()
        let service = BackupService(manager: target.manager, logger: target.logger)
        _ = try service.restore(try BackupArchive.decode(data))
        XCTAssertThrowsError(try service.provideCredential(Secret("not-a-key"), for: "claude"), "format check still applies")
        XCTAssertEqual(try service.readiness(of: "claude"), .credentialRequired)
        try service.provideCredential(Secret(TestSecrets.anthropicKey), for: "claude")
        XCTAssertEqual(try service.readiness(of: "claude"), .ready)
    }

    func testExportRedactsKeysPastedIntoConversations() throws {
        let (harness, profiles, conversations) = try populated()
        let archive = try BackupService(manager: harness.manager, logger: harness.logger)
            .export(conversations: conversations, profiles: profiles)
        XCTAssertEqual(archive.conversations[0].messages[2].content, "oops, my key: <redacted>")
    }
}
