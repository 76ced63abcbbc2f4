import Foundation
import XCTest
import TestSupport

/// Warnings and errors about config and rules files say the file, line and column, never
/// a key name or value from the file: a secret pasted where a name or value goes must not
/// reach stderr (or stdout).
final class ConfigEchoTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "toml12345"

    func check(config: String? = nil, rules: String? = nil, expectStatus: Int32? = nil, expect: String,
               file: StaticString = #filePath, line: UInt = #line) {
        let tmp = TempDir()
        tmp.write("src/a.txt", "nothing here\n")
        var args = ["scan", tmp.path + "/src", "--no-progress"]
        if let config { tmp.write("config.toml", config); args += ["--config", tmp.path + "/config.toml"] }
        if let rules { tmp.write("rules.toml", rules); args += ["--rules", tmp.path + "/rules.toml"] }
        for format in ["text", "json"] {
            let r = keyshape(args + ["--format", format])
            if let expectStatus { XCTAssertEqual(r.status, expectStatus, r.stderr, file: file, line: line) }
            assertNoFragment(of: canary, in: r.stderr, "stderr", file: file, line: line)
            assertNoFragment(of: canary, in: r.stdout, "stdout", file: file, line: line)
            XCTAssertTrue(r.stderr.contains(expect), "\(expect) in \(r.stderr)", file: file, line: line)
        }
    }

    func testUnknownKeysAreWarnedByPositionOnly() {
        check(config: "\(canary) = 1\n", expectStatus: 0, expect: "config.toml:1:1: warning: unknown key (ignored)")
        check(config: "[scan]\nmaxFileSize = 1000\n\(canary) = true\n", expectStatus: 0, expect: "config.toml:3:1: warning: unknown key in [scan]")
        check(config: "[[allowlists]]\n\"\(canary)\" = ['x']\n", expectStatus: 0, expect: "config.toml:2:1: warning: unknown allowlist key")
        check(rules: "[extend]\n\(canary) = 1\n", expectStatus: 0, expect: "rules.toml:2:1: warning: unknown key in [extend]")
        check(rules: "[[rules]]\nid = \"demo\"\nregex = '''demo_[0-9]{6}'''\nkeywords = [\"demo_\"]\n\(canary) = 'x'\n",
              expectStatus: 0, expect: "rules.toml:5:1: warning: rule `demo`: unknown key (ignored)")
    }

    func testDuplicateAndConflictingKeysAreLocatedNotQuoted() {
        check(config: "\(canary) = 1\n\(canary) = 2\n", expectStatus: 2, expect: "config.toml:2:1: duplicate key (first defined at line 1, column 1)")
        check(config: "[\(canary)]\n[\(canary)]\n", expectStatus: 2, expect: "config.toml:2:2: this table is defined more than once")
        check(config: "\(canary) = 'x'\n[\(canary).b]\n", expectStatus: 2, expect: "config.toml:2:2: this key is already a string, not a table")
        check(rules: "[[rules]]\nid = \"demo\"\nregex = 'x'\n[\(canary)]\nz = 1\n[\(canary)]\n", expectStatus: 2, expect: "rules.toml:6:2:")
    }

    func testMalformedValuesAreLocatedNotQuoted() {
        check(config: "[scan]\nmaxFileSize = \"\(canary)\"\n", expectStatus: 2, expect: "config.toml:2:1: maxFileSize must be")
        check(config: "[[allowlists]]\npaths = \(canary)\n", expectStatus: 2, expect: "config.toml:2:9: expected a value")
        check(config: "[[allowlists]]\nregexTarget = \"\(canary)\"\n", expectStatus: 2, expect: "regexTarget must be secret, match or line")
        check(config: "[[allowlists]]\nregexes = ['''(\(canary)''']\n", expectStatus: 2, expect: "config.toml:2:1: invalid regex in `regexes`")
        check(config: "[[allowlists]]\npaths = ['x' '\(canary)']\n", expectStatus: 2, expect: "config.toml:2:14: expected ',' or ']'")
        check(config: "a = \"\(canary)\\q\"\n", expectStatus: 2, expect: "invalid escape sequence")
        // A rule whose id is the pasted key: named by position only.
        check(rules: "[[rules]]\nid = \"\(canary)\"\nregex = '''(x'''\nkeywords = [\"x\"]\n", expectStatus: 2, expect: "rules.toml:3:1: rule: invalid regex")
        check(rules: "[[rules]]\nid = \"\(canary)\"\nkeywords = [\"x\"]\n", expectStatus: 2, expect: "rule has no `regex`")
    }
}
