import Foundation
import XCTest

/// `keyshape COMMAND --help` and `keyshape help COMMAND` show that command only: its usage,
/// its flags and its exit statuses.
final class HelpTests: XCTestCase {
    func help(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = keyshape(args)
        XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    func testEachCommandShowsOnlyItsOwnFlags() {
        let scan = help(["scan", "--help"])
        XCTAssertTrue(scan.hasPrefix("Usage:\n  keyshape scan [PATH ...]\n"), scan)
        for flag in ["--format", "--stdin-name", "--sarif-output", "--quiet", "--color", "--follow"] {
            XCTAssertTrue(scan.contains(flag), "scan: \(flag)")
        }
        for flag in ["--all-objects", "--pre-push", "--require-examples", "--products"] { XCTAssertFalse(scan.contains(flag), "scan: \(flag)") }
        XCTAssertTrue(scan.contains("Exit status:\n  0  "), scan)
        XCTAssertEqual(help(["help", "scan"]), scan)

        let history = help(["history", "-h"])
        XCTAssertTrue(history.contains("--all-objects") && !history.contains("--stdin-name") && !history.contains("--follow"), history)
        let hook = help(["hook", "--help"])
        XCTAssertTrue(hook.contains("keyshape hook install [REPO]") && hook.contains("--pre-push") && !hook.contains("--format"), hook)
        XCTAssertEqual(help(["help", "hook", "install"]), hook)
    }

    func testRulesHelp() {
        let rules = help(["rules", "--help"])
        XCTAssertTrue(rules.contains("keyshape rules list") && rules.contains("keyshape rules check"), rules)
        XCTAssertTrue(rules.contains("--require-examples") && rules.contains("(rules check)"), rules)
        XCTAssertTrue(rules.contains("Exit status of `rules check`:\n  0  "), rules)
        XCTAssertFalse(rules.contains("--baseline"))
        XCTAssertEqual(help(["help", "rules"]), rules)
        let list = help(["rules", "list", "--help"])
        XCTAssertTrue(list.contains("--format") && !list.contains("--require-examples"), list)
        XCTAssertEqual(help(["help", "rules", "list"]), list)
    }

    func testOverviewAndUnknownTopic() {
        let overview = help(["--help"])
        XCTAssertTrue(overview.contains("keyshape audit [REPO]") && overview.contains("keyshape COMMAND --help"), overview)
        XCTAssertTrue(overview.contains("--min-string-length") && overview.contains("--all-objects"), "the overview names every flag")
        XCTAssertEqual(help(["help"]), overview)
        let unknown = keyshape(["help", "sk-not-a-command"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertFalse(unknown.stderr.contains("sk-not-a-command"), "a topic is never echoed")
    }
}
