import Foundation
import XCTest
import TestSupport

/// Drives the built `byok` demo against the loopback server.
final class ByokTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer(ports: 1)
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func byok(_ arguments: [String], stdin: String?) throws -> ProcessResult {
        try runProcess(Binary.url("byok"), ["chat"] + arguments, input: stdin.map { Data($0.utf8) }, timeout: 120)
    }

    func testStoresTheKeyFromStdinSendsAndStreams() throws {
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let result = try byok(["--provider", "anthropic", "--base-url", origin + "/ok", "--model", "claude-test",
                               "--message", "Hello", "--confirm", origin, "--store", "memory", "--verbose",
                               "--rules", Repo.path("Rules").path],
                              stdin: TestSecrets.anthropicKey + "\n")
        XCTAssertEqual(result.status, 0, result.stderr.count > 2000 ? "" : Repo.redactor.redact(result.stderr).text)
        XCTAssertEqual(result.stdout, "Hello from the stream.\n")
        XCTAssertEqual(server.received.first?.value("x-api-key"), TestSecrets.anthropicKey)
        XCTAssertTrue(result.stderr.contains("<redacted>"), "the verbose log shows the key header redacted")
        XCTAssertNoSecret(result.stdout + result.stderr, "byok output")
    }

    func testNoStreamOpenAI() throws {
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let result = try byok(["--provider", "openai", "--base-url", origin + "/ok/v1", "--model", "gpt-test",
                               "--message", "Hello", "--confirm", origin, "--no-stream"],
                              stdin: TestSecrets.openAIKey + "\n")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "Hello from the test server.\n")
        XCTAssertEqual(server.received.first?.value("Authorization"), "Bearer " + TestSecrets.openAIKey)
    }

    func testUnconfirmedOriginIsRefusedAndReceivesNothing() throws {
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let result = try byok(["--provider", "custom", "--base-url", origin + "/ok", "--model", "m", "--message", "Hello"],
                              stdin: TestSecrets.canary + "\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("has not been confirmed"))
        XCTAssertTrue(server.requests.isEmpty)
        XCTAssertNoSecret(result.stdout + result.stderr, "byok output")
    }

    func testProviderErrorExitsOneWithoutTheKey() throws {
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let result = try byok(["--provider", "custom", "--base-url", origin + "/status/401", "--model", "m",
                               "--message", "Hello", "--confirm", origin, "--verbose"],
                              stdin: TestSecrets.canary + "\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("HTTP 401"))
        XCTAssertNoSecret(result.stdout + result.stderr, "byok output")
    }

    func testKeyIsNeverTakenFromArguments() throws {
        let result = try byok(["--model", "m", "--message", "Hello", TestSecrets.anthropicKey], stdin: "")
        XCTAssertEqual(result.status, 2)
        XCTAssertNoSecret(result.stdout + result.stderr, "byok output")
    }
}
