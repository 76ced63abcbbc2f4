import Foundation
import XCTest
import TestSupport

/// Text from an argument is never echoed unless it is a path to scan or write: a key
/// pasted in the wrong place must not reach the terminal, shell logs or CI output. An
/// unknown flag is named only when it has a flag's shape, never with its value.
final class ArgumentEchoTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "args12345"
    let lowercaseKey = "sk-proj-" + "abcdefghijkmnopqrstuvwxyz234567"

    func testMisplacedKeysAreNotEchoed() {
        let tmp = TempDir()
        tmp.write("a.txt", "nothing\n")
        let cases: [[String]] = [
            [canary], ["--" + canary], ["rules", canary], ["hook", canary], ["scan", "--" + canary], ["scan", "--bogus=" + canary],
            ["scan", "-Z" + canary], ["scan", "--format", canary], ["scan", "--format=" + canary], ["scan", "--jobs", canary],
            ["scan", "--exit-code", canary], ["scan", "--max-file-size", canary], ["scan", "--min-string-length", canary],
            ["scan", "--no-progress=" + canary], ["rules", "list", "--" + canary], ["scan", "--" + lowercaseKey],
            ["scan", tmp.path, "--" + canary + "=x"],
        ]
        for args in cases {
            let r = keyshape(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("keyshape: error:"), r.stderr)
            for secret in [canary, lowercaseKey] {
                assertNoFragment(of: secret, in: r.stderr + r.stdout, "\(args.first ?? "")")
            }
        }
    }

    func testUnknownFlagsWithAFlagsShapeAreStillNamed() {
        let bogus = keyshape(["scan", "--bogus=" + canary])
        XCTAssertTrue(bogus.stderr.contains("unknown flag `--bogus` for `keyshape scan`"), bogus.stderr)
        let short = keyshape(["scan", "-Z"])
        XCTAssertTrue(short.stderr.contains("unknown flag `-Z`"), short.stderr)
        let odd = keyshape(["scan", "--" + canary])
        XCTAssertTrue(odd.stderr.contains("unknown flag at argument 2 for `keyshape scan`"), odd.stderr)
        let command = keyshape(["frobnicate"])
        XCTAssertTrue(command.stderr.contains("unknown command (expected scan, history"), command.stderr)
    }
}
