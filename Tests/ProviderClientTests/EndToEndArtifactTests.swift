import CredentialStore
import Foundation
@testable import ProviderClient
import XCTest
import TestSupport

/// The end-to-end audit: run the client through success, streaming, every error class,
/// redirects, refusals, proxy mode, backup/restore and the byok demo with the canary key
/// and a realistic Anthropic key; write every artifact it produces to one folder; then
/// `keyshape scan` that folder must find nothing, while a deliberately leaking control
/// file proves the same scan does find the keys.
///
/// The folder is `$KEYSHAPE_CLIENT_ARTIFACTS` when set (left in place for CI to scan
/// again), a temporary folder otherwise. Artifacts:
///   client/log.jsonl            every log record, debug level (request bodies included)
///   analytics/events.jsonl      every analytics event as sent
///   backup/archive.json         the backup export; backup/restore.txt what restore did
///   diagnostics/report.json     the diagnostics report (recent log, statuses, errors)
///   diagnostics/errors.txt      description, debugDescription and localizedDescription of every error
///   connections/*.json          connection metadata as persisted, profiles, confirmations, statuses
///   server/requests.jsonl       everything the server received, except credential header
///                               values, which the server records in a private file instead:
///                               those headers are where the key is supposed to be, and the
///                               tests assert their values separately; the request line, every
///                               other header and the body stay verbatim, so a key anywhere
///                               else is caught by the scan
///   byok/                       the demo's stdout, stderr and --log file
final class EndToEndArtifactTests: XCTestCase {
    static let subfolders = ["client", "analytics", "backup", "diagnostics", "connections", "server", "byok"]

    func testEveryArtifactTheClientProducesScansClean() async throws {
        let artifacts: TemporaryFolder
        if let path = ProcessInfo.processInfo.environment["KEYSHAPE_CLIENT_ARTIFACTS"], !path.isEmpty {
            artifacts = TemporaryFolder(at: URL(fileURLWithPath: path))
            // Only what this test writes is removed, never the folder itself.
            for name in Self.subfolders { try? FileManager.default.removeItem(at: artifacts.file(name)) }
        } else {
            artifacts = TemporaryFolder(prefix: "client-artifacts")
        }
        for name in Self.subfolders {
            try FileManager.default.createDirectory(at: artifacts.file(name), withIntermediateDirectories: true)
        }

        let server = try TestServer(ports: 2, requestLog: artifacts.file("server/requests.jsonl"), credentialHeaders: ["X-Org"])
        defer { server.stop() }
        let harness = Harness(repository: JSONFileConnectionRepository(fileURL: artifacts.file("connections/connections.json")))
        var errors: [Error] = []
        var profiles: [ConnectionProfile] = []
        func record(_ endpoint: EndpointConfiguration) -> EndpointConfiguration {
            if case .direct(let profile) = endpoint { profiles.append(profile) }
            return endpoint
        }
        func attempt(_ body: () async throws -> Void) async {
            do { try await body() } catch { errors.append(error) }
        }
        func stream(_ endpoint: EndpointConfiguration) async throws {
            for try await _ in harness.client.stream(hello, to: endpoint) {}
        }

        // Successful requests, both APIs, both keys, streamed and not.
        let canary = record(try harness.connect("canary", baseURL: server.baseURL("/ok"), key: TestSecrets.canary,
                                                headers: ["X-Org": .protected(Secret(TestSecrets.protectedHeaderValue)),
                                                          "X-Team": .public("blue")]))
        let claude = record(try harness.connect("claude", provider: .anthropic, baseURL: server.baseURL("/ok"),
                                                key: TestSecrets.anthropicKey))
        let gpt = record(try harness.connect("gpt", provider: .openAI, baseURL: server.baseURL("/ok/v1"), key: TestSecrets.openAIKey,
                                             api: .openAIChatCompletions))
        for endpoint in [canary, claude, gpt] {
            _ = try await harness.client.send(hello, to: endpoint)
            try await stream(endpoint)
        }

        // Every error class, with the canary and with the realistic key; the 401 body echoes the key.
        for status in [400, 401, 403, 429, 500, 529] {
            let withCanary = record(try harness.connect("canary-\(status)", baseURL: server.baseURL("/status/\(status)"),
                                                        key: TestSecrets.canary))
            await attempt { _ = try await harness.client.send(hello, to: withCanary) }
            let withKey = record(try harness.connect("claude-\(status)", provider: .anthropic,
                                                     baseURL: server.baseURL("/status/\(status)"), key: TestSecrets.anthropicKey))
            await attempt { try await stream(withKey) }
        }

        // A redirect to another origin, and a network failure.
        let redirected = record(try harness.connect("redirected", provider: .anthropic,
                                                    baseURL: server.baseURL("/redirect-port/\(server.ports[1])/ok"),
                                                    key: TestSecrets.anthropicKey))
        await attempt { _ = try await harness.client.send(hello, to: redirected) }
        let closed = record(try harness.connect("closed", baseURL: URL(string: "http://127.0.0.1:9")!, key: TestSecrets.canary))
        await attempt { _ = try await harness.client.send(hello, to: closed) }

        // Refusals: unconfirmed origin, plain http to a LAN host, a pasted key, a token in a URL.
        let unconfirmed = record(try harness.connect("unconfirmed", baseURL: server.baseURL("/ok"), key: TestSecrets.canary,
                                                     confirm: false))
        await attempt { _ = try await harness.client.send(hello, to: unconfirmed) }
        let lan = record(try harness.connect("lan", baseURL: URL(string: "http://192.0.2.1:8080")!, key: TestSecrets.anthropicKey,
                                             confirm: true))
        await attempt { _ = try await harness.client.send(hello, to: lan) }
        await attempt {
            _ = try await harness.client.send(ChatRequest(model: "m", messages: [.user("key: " + TestSecrets.anthropicKey)]), to: claude)
        }
        let tokenReference = try CredentialReference.header("app-token", for: "edge")
        try harness.store.save(Secret(TestSecrets.appToken), for: tokenReference)
        let leakyProxy = EndpointConfiguration.proxy(ProxyConfiguration(
            name: "edge", baseURL: URL(string: server.baseURL("/ok").absoluteString + "?t=" + TestSecrets.appToken)!,
            api: .anthropicMessages, provider: .anthropic, appToken: .init(headerName: "X-Org", reference: tokenReference)))
        await attempt { _ = try await harness.client.send(hello, to: leakyProxy) }

        // Proxy mode, done right.
        let proxy = EndpointConfiguration.proxy(ProxyConfiguration(name: "edge", baseURL: server.baseURL("/ok"), api: .anthropicMessages,
                                                                   provider: .anthropic,
                                                                   appToken: .init(headerName: "X-Org", reference: tokenReference)))
        try await stream(proxy)

        // A cancelled stream.
        let slow = record(try harness.connect("slow", provider: .anthropic, baseURL: server.baseURL("/slow"), key: TestSecrets.anthropicKey))
        let consumer = Task { try await stream(slow) }
        try await Task.sleep(nanoseconds: 400_000_000)
        consumer.cancel()
        _ = await consumer.result

        // Backup and restore.
        let conversations = [Conversation(title: "Keys", connectionID: "claude",
                                          messages: [.user("is this right? " + TestSecrets.anthropicKey), .assistant("Never share keys.")])]
        let backup = BackupService(manager: harness.manager, logger: harness.logger)
        let archive = try backup.export(conversations: conversations, profiles: profiles)
        try artifacts.write("backup/archive.json", try archive.encoded())
        let restoredHarness = Harness(repository: JSONFileConnectionRepository(fileURL: artifacts.file("backup/restored-connections.json")))
        let restore = BackupService(manager: restoredHarness.manager, logger: harness.logger)
        let report = try restore.restore(try BackupArchive.decode(try archive.encoded()))
        XCTAssertTrue(try restoredHarness.store.listReferences().isEmpty)
        var restoreText = ""
        for id in report.restored { restoreText += "\(id): \(try restore.readiness(of: id))\n" }
        try artifacts.write("backup/restore.txt", restoreText)
        XCTAssertTrue(restoreText.contains("claude: credential required"))

        // The byok demo, with its own log file.
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let byok = try runProcess(Binary.url("byok"), ["chat", "--provider", "anthropic", "--base-url", origin + "/ok",
                                                       "--model", "claude-test", "--message", "Hello", "--confirm", origin,
                                                       "--log", artifacts.file("byok/log.jsonl").path, "--verbose"],
                                  input: Data((TestSecrets.anthropicKey + "\n").utf8), timeout: 120)
        XCTAssertEqual(byok.status, 0)
        try artifacts.write("byok/stdout.txt", byok.stdout)
        try artifacts.write("byok/stderr.txt", byok.stderr)

        // Let the last log records and server lines land, then write the rest.
        try await Task.sleep(nanoseconds: 300_000_000)
        server.stop()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try artifacts.write("client/log.jsonl", harness.logJSONLines + "\n")
        try artifacts.write("analytics/events.jsonl", harness.analyticsText + "\n")
        try artifacts.write("diagnostics/report.json", try DiagnosticsReport.make(manager: harness.manager, logger: harness.logger,
                                                                                 recentLog: harness.logSink.records,
                                                                                 errors: errors).encoded())
        try artifacts.write("diagnostics/errors.txt", errors.map {
            "\($0)\n\(String(reflecting: $0))\n\($0.localizedDescription)"
        }.joined(separator: "\n"))
        try artifacts.write("connections/profiles.json", try encoder.encode(profiles))
        try artifacts.write("connections/confirmations.json", try encoder.encode(harness.client.confirmations.snapshot))
        try artifacts.write("connections/status.txt", try harness.manager.records().map {
            String(describing: try harness.manager.status(of: $0.id))
        }.joined(separator: "\n"))

        // Sanity: the run did what it claims.
        XCTAssertGreaterThanOrEqual(errors.count, 15)
        XCTAssertTrue(errors.contains { ($0 as? ProviderError) == .unauthorized })
        XCTAssertTrue(errors.contains { ($0 as? RequestRefusal) == .credentialInURL(.credentialValue) })
        XCTAssertGreaterThan(server.requests.count, 20)
        XCTAssertTrue(server.received.contains { $0.value("x-api-key") == TestSecrets.canary })
        XCTAssertTrue(server.received.contains { $0.value("x-api-key") == TestSecrets.anthropicKey })
        XCTAssertTrue(harness.logText.contains("invalid credentials"), "echoed 401 bodies were logged (redacted)")

        // Second opinion from the test itself: no 12-byte fragment of any secret anywhere.
        let files = FileManager.default.enumerator(at: artifacts.url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var scanned = 0
        for file in files where Self.subfolders.contains(where: { file.path.contains("/\($0)/") }) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            XCTAssertNoSecret(text, "artifact \(file.lastPathComponent)")
            scanned += 1
        }
        XCTAssertGreaterThanOrEqual(scanned, 14)

        // keyshape's verdict on the artifacts.
        let scan = try runProcess(Binary.url("keyshape"), ["scan", artifacts.url.path, "--format", "json", "--no-progress"])
        let report_ = try XCTUnwrap(scan.report)
        let findings = report_["findings"] as? [[String: Any]] ?? []
        XCTAssertEqual(findings.count, 0, "keyshape found: " + findings.map { finding in
            let location = finding["location"] as? [String: Any]
            return "\(finding["rule"] ?? "?") at \(location?["path"] ?? "?"):\(location?["line"] ?? "?")"
        }.joined(separator: ", "))
        XCTAssertEqual((report_["errors"] as? [Any])?.count ?? 0, 0)
        XCTAssertEqual(scan.status, 0)
    }

    /// The control: the same scan on a file that does leak must fail, or the clean result
    /// above proves nothing.
    func testTheScanFindsADeliberateLeak() throws {
        let control = TemporaryFolder(prefix: "client-control")
        try control.write("leaky.log", """
        401 request failed: x-api-key=\(TestSecrets.canary)
        retrying with key \(TestSecrets.anthropicKey)

        """)
        let scan = try runProcess(Binary.url("keyshape"), ["scan", control.url.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(scan.status, 1)
        let report = try XCTUnwrap(scan.report)
        let rules = Set((report["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String })
        XCTAssertTrue(rules.contains("keyshape-canary"), "the canary was not found")
        XCTAssertTrue(rules.contains("anthropic-api-key"), "the realistic Anthropic key was not found")
        XCTAssertNoSecret(scan.stdout + scan.stderr, "keyshape's own output")
    }
}
