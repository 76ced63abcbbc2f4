@testable import CredentialStore
import Foundation
import TestSupport
import XCTest

/// Runs the `keyshape-credentials` binary: keys go in on stdin only, and no
/// output ever contains them.
final class CommandLineTests: XCTestCase {
    struct Run {
        var status: Int32
        var output: String
        var error: String
        var all: String { output + error }
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "keyshape-credentials was not built next to the tests" }
    }

    private func run(_ arguments: [String], input: String = "") throws -> Run {
        guard let binary = BuiltProduct.url("keyshape-credentials") else { throw NotBuilt() }
        let child = try runChild(binary, arguments, input: Data(input.utf8), timeout: 120)
        XCTAssertFalse(child.timedOut, "keyshape-credentials \(arguments.first ?? "") timed out")
        return Run(status: child.status, output: child.stdoutText, error: child.stderrText)
    }

    func testSetReadsTheKeyFromStdinAndPrintsOnlyTheHint() throws {
        let result = try run(["--store", "memory", "set", "demo", "--provider", "custom", "--base-url", "https://llm.example.com"],
                             input: TestSecrets.canaryKey + "\n")
        XCTAssertEqual(result.status, 0, result.error)
        // The connection's name is an argument, which is never echoed (CommandLineEchoTests).
        XCTAssertEqual(result.output, "configured, key ••••-key\n")
        XCTAssertFalse(result.all.contains(TestSecrets.canary))
    }

    func testKeysOnTheCommandLineAreRefusedWithoutBeingEchoed() throws {
        for arguments in [["--store", "memory", "set", "demo", "--api-key", TestSecrets.canaryKey],
                          ["--store", "memory", "set", "demo", "--key=" + TestSecrets.canaryKey],
                          ["--store", "memory", "set", "demo", TestSecrets.canaryKey],
                          ["--store", "memory", TestSecrets.canaryKey]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertFalse(result.all.contains(TestSecrets.canary), "the refused argument was echoed")
        }
    }

    func testWrongPasteIsRejected() throws {
        let result = try run(["--store", "memory", "set", "demo", "--provider", "anthropic"], input: TestSecrets.canary + "\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("does not start with the provider's prefix"), result.error)
        XCTAssertFalse(result.all.contains(TestSecrets.canary))
    }

    #if os(Linux)
    func testFullLifecycleAgainstTheSecretService() throws {
        try SecretServiceTestCase.requireSecretService()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyshape-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = directory.appendingPathComponent("connections.json").path
        let base = ["--store", "secret-service", "--records", records]

        var result = try run(base + ["set", "cli-demo", "--provider", "anthropic", "--header", "X-API-Key"],
                             input: TestSecrets.anthropicKey + "\n" + TestSecrets.canaryHeader + "\n")
        XCTAssertEqual(result.status, 0, result.error)
        result = try run(base + ["status", "cli-demo"])
        XCTAssertTrue(result.output.contains("••••" + TestSecrets.anthropicKey.suffix(4)), result.output)
        XCTAssertTrue(result.output.contains("X-API-Key"))
        result = try run(base + ["rotate", "cli-demo"], input: TestSecrets.anthropicReplacement + "\n")
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertTrue(result.output.contains("replaced, key ••••" + TestSecrets.anthropicReplacement.suffix(4)), result.output)
        let store = SecretServiceCredentialStore()
        XCTAssertEqual(try store.listReferences(for: "cli-demo").filter { $0.kind == .apiKey }.count, 1)

        let file = try String(contentsOfFile: records, encoding: .utf8)
        for secret in [TestSecrets.anthropicKey, TestSecrets.anthropicReplacement, TestSecrets.canary] {
            XCTAssertFalse(file.contains(secret) || result.all.contains(secret))
        }

        result = try run(base + ["delete", "cli-demo"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try store.listReferences(for: "cli-demo"), [])

        _ = try run(base + ["set", "cli-two", "--provider", "custom", "--base-url", "https://x.example"], input: "value-two\n")
        XCTAssertEqual(try run(base + ["delete-all"]).status, 2, "delete-all needs --yes")
        XCTAssertEqual(try store.listReferences(for: "cli-two").count, 1)
        result = try run(base + ["delete-all", "--yes"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(try store.listReferences(), [])
        XCTAssertTrue(try run(base + ["status"]).output.contains("no connections"))
    }
    #endif
}
