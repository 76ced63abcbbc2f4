import Foundation
import TestSupport
import XCTest

/// `keyshape-credentials` never prints its arguments back (a key typed where a connection,
/// store or provider goes), and a stdout or stderr it cannot write never traps it.
final class CommandLineEchoTests: XCTestCase {
    /// Not TestSecrets.canary: the key piped in below contains that one.
    let pasted = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "zq8Rk3Wp"

    struct NotBuilt: Error {}

    func binary() throws -> URL {
        guard let url = BuiltProduct.url("keyshape-credentials") else { throw NotBuilt() }
        return url
    }

    func run(_ arguments: [String], input: String = "") throws -> (status: Int32, all: String) {
        let child = try runChild(try binary(), arguments, input: Data(input.utf8), timeout: 120)
        XCTAssertFalse(child.timedOut)
        return (child.status, child.stdoutText + child.stderrText)
    }

    func assertNoFragment(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(pasted.utf8)
        for start in 0...(bytes.count - 8) where text.contains(String(decoding: bytes[start..<start + 8], as: UTF8.self)) {
            XCTFail("\(what): output holds a piece of the argument: \(text)", file: file, line: line)
            return
        }
    }

    func testArgumentsAreNeverEchoed() throws {
        let base = ["--store", "memory"]
        let key = TestSecrets.canaryKey + "\n"
        let cases: [([String], String)] = [
            (["--store", pasted, "status"], ""),
            (["--store=" + pasted, "status"], ""),
            (base + ["status", pasted], ""),
            (base + ["delete", pasted], ""),
            (base + ["rotate", pasted], key),
            (base + ["set", pasted, "--provider", "custom", "--base-url", "https://llm.example.com"], key),
            (base + ["set", "demo", "--provider", pasted], key),
            (base + ["set", "demo", "--provider", pasted, "--base-url", "https://llm.example.com"], key),
            (base + ["set", "demo", "--provider", "custom", "--base-url", "https://llm.example.com", "--header", pasted], key + "value1234\n"),
            (base + ["set", "demo", "--provider", "custom", "--base-url", "https://llm.example.com", "--header", pasted], key),
            (base + ["set", pasted + "!", "--provider", "custom", "--base-url", "https://llm.example.com"], key),
            (base + ["set", "demo", "--name", pasted, "--provider", "custom", "--base-url", "https://llm.example.com"], key),
        ]
        for (arguments, input) in cases {
            let result = try run(arguments, input: input)
            assertNoFragment(result.all, "\(arguments.prefix(3))")
            XCTAssertFalse(result.all.contains(TestSecrets.canary), "the piped key")
        }
        // What a named connection's status says, without its name.
        let set = try run(base + ["set", pasted, "--provider", "custom", "--base-url", "https://llm.example.com"], input: key)
        XCTAssertEqual(set.status, 0, set.all)
        XCTAssertTrue(set.all.contains("configured, key ••••-key"), set.all)
    }

    func testBrokenStdoutNeverTraps() throws {
        let tmp = NSTemporaryDirectory() + "kc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        for arguments in [["--help"], ["--store", "memory", "status"]] {
            let piped = runWithStreams(try binary(), arguments, stdout: .closedPipe, stderr: .file(tmp))
            XCTAssertEqual(piped, ChildEnd(exitStatus: 0, signal: nil), "\(arguments) | head -c0")
            let full = runWithStreams(try binary(), arguments, stdout: .full, stderr: .file(tmp))
            XCTAssertEqual(full, ChildEnd(exitStatus: 1, signal: nil), "\(arguments) >/dev/full")
            XCTAssertTrue((try? String(contentsOfFile: tmp, encoding: .utf8))?.contains("cannot write to standard output: No space left on device") ?? false)
            let noStderr = runWithStreams(try binary(), arguments + ["--bogus"], stdout: .closedPipe, stderr: .closed)
            XCTAssertEqual(noStderr, ChildEnd(exitStatus: 2, signal: nil), "\(arguments) 2>&-")
        }
    }
}
