import Foundation
import ProviderClient
import TestSupport
import XCTest

/// A provider that echoes the key in an error body without its prefix, upper-cased, or in
/// part puts none of it in the client's log, byok's `--verbose` output or its `--log` file;
/// byok never prints its arguments back, and a broken stdout or stderr never traps it.
final class EchoedKeyTests: XCTestCase {
    var server: TestServer!

    /// A key of no known shape (no rule can redact it), mixed case, made at run time.
    let key = "kq-" + TestSecrets.spread(40, step: 17, offset: 9, alphabet: TestSecrets.alphanumerics)

    override func setUpWithError() throws {
        server = try TestServer(ports: 1)
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    /// Fails when `text` holds any 8-byte piece of `secret`, compared case-insensitively.
    func assertNoPiece(of secret: String, in text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(secret.lowercased().utf8), lowered = text.lowercased()
        for start in 0...(bytes.count - 8) where lowered.contains(String(decoding: bytes[start..<start + 8], as: UTF8.self)) {
            XCTFailNoValue("\(what) holds a piece of the key (at offset \(start))", file: file, line: line)
            return
        }
    }

    func testKeyEchoedMangledInAnErrorBodyIsScrubbedFromTheLog() async throws {
        for auth in [AuthenticationScheme.xAPIKey, .bearer] {
            let harness = Harness(redactor: .fallbackOnly)
            let endpoint = try harness.connect("c", baseURL: server.baseURL("/echo-mangled/401"), key: key, authentication: auth)
            _ = await captureError { try await harness.client.send(hello, to: endpoint) }
            XCTAssertTrue(harness.logText.contains("invalid credentials"), "the error body was logged")
            XCTAssertTrue(harness.logText.contains("normalised <redacted>"), "the upper-cased echo is scrubbed in place")
            assertNoPiece(of: key, in: harness.logJSONLines, "log (\(auth))")
        }
    }

    func testByokVerboseAndLogFileHoldNoPieceOfAnEchoedKey() throws {
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let log = NSTemporaryDirectory() + "byok-log-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try runProcess(Binary.url("byok"), ["chat", "--provider", "custom", "--base-url", origin + "/echo-mangled/401",
                                                         "--model", "m", "--message", "Hello", "--confirm", origin, "--verbose", "--log", log],
                                    input: Data((key + "\n").utf8), timeout: 120)
        XCTAssertEqual(result.status, 1)
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(logged.contains("invalid credentials"), "the error body was logged")
        assertNoPiece(of: key, in: result.stdout + result.stderr, "byok output")
        assertNoPiece(of: key, in: logged, "byok --log")
    }

    func testByokNeverEchoesItsArguments() throws {
        let pasted = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "byokArg7"
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let common = ["--model", "m", "--message", "Hello"]
        for arguments in [common + ["--store", pasted], common + [pasted], common + ["--" + pasted],
                          common + ["--connection", pasted, "--base-url", origin + "/ok"],
                          common + ["--provider", "custom", "--base-url", origin + "/ok", "--protected-header", pasted]] {
            let result = try runProcess(Binary.url("byok"), ["chat"] + arguments, input: Data((key + "\n").utf8), timeout: 120)
            XCTAssertNotEqual(result.status, 0)
            assertNoPiece(of: pasted, in: result.stdout + result.stderr, "byok \(arguments.suffix(2).first ?? "")")
        }
    }

    func testBrokenStreamsNeverTrapByok() throws {
        let errors = NSTemporaryDirectory() + "byok-stderr-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: errors) }
        XCTAssertEqual(runWithStreams(Binary.url("byok"), ["--help"], stdout: .closedPipe, stderr: .file(errors)),
                       ChildEnd(exitStatus: 0, signal: nil))
        XCTAssertEqual(runWithStreams(Binary.url("byok"), ["--help"], stdout: .full, stderr: .file(errors)),
                       ChildEnd(exitStatus: 1, signal: nil))
        XCTAssertTrue(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("No space left on device"))
        XCTAssertEqual(runWithStreams(Binary.url("byok"), ["chat", "--bogus"], stdout: .closedPipe, stderr: .closed),
                       ChildEnd(exitStatus: 2, signal: nil))
        let origin = "http://127.0.0.1:\(server.ports[0])"
        let answer = runWithStreams(Binary.url("byok"), ["chat", "--provider", "anthropic", "--base-url", origin + "/ok", "--model", "m",
                                                         "--message", "Hello", "--confirm", origin, "--verbose"],
                                    stdout: .full, stderr: .closed, input: TestSecrets.anthropicKey + "\n")
        XCTAssertEqual(answer, ChildEnd(exitStatus: 1, signal: nil), "an answer that cannot be written is a failure")
    }
}
