import Foundation
import XCTest
import TestSupport

/// Custom rules as users write them: `[[rules]]` in the scanned root's `.keyshape.toml` run
/// (as the tree's own, see RepositoryRuleOracleTests), a `--config FILE`'s too; a `--rules`
/// rule that takes a loaded rule's id is warned about unless it says `override = true`.
final class CustomRuleTests: XCTestCase {
    let rule = "[[rules]]\nid = \"acme-token\"\ndescription = \"ACME internal token\"\nregex = '''acme_tok_([0-9a-f]{32})'''\nsecretGroup = 1\nkeywords = [\"acme_tok_\"]\n"
    let value = "acme_tok_" + "4f1c9a7e2b8d0653c1e7a9f2b4d8e0a3"

    func rules(_ r: Run) -> [String] {
        let object = r.report
        return ((object?["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
    }

    func testRulesInTheRootConfigAndInAUserConfigRun() {
        let tmp = TempDir()
        // (A name no generic rule reads: where a builtin rule matches, the tree's rules see blanks.)
        tmp.write("tree/app.ini", "ref = \(value)\n")
        tmp.write("tree/.keyshape.toml", rule)
        let root = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        XCTAssertEqual(root.status, 1, root.stderr)
        XCTAssertEqual(rules(root), ["acme-token"])
        XCTAssertFalse(root.stderr.contains("ignored"), root.stderr)
        assertNoFragment(of: value, in: root.stdout + root.stderr, "output")
        tmp.write("user.toml", rule)
        let user = keyshape(["scan", tmp.path + "/tree", "--no-config", "--config", tmp.path + "/user.toml", "--format", "json", "--no-progress"])
        XCTAssertEqual(rules(user), ["acme-token"], user.stderr)
        let none = keyshape(["scan", tmp.path + "/tree", "--no-config", "--format", "json", "--no-progress"])
        XCTAssertEqual(rules(none), [], none.stderr)
    }

    func testARulesFileTakingABuiltinIdIsWarnedAboutUnlessItSaysSo() {
        let tmp = TempDir()
        tmp.write("tree/a.txt", "nothing\n")
        let replacing = rule.replacingOccurrences(of: "acme-token", with: "github-pat")
        tmp.write("mine.toml", replacing)
        let warned = keyshape(["scan", tmp.path + "/tree", "--rules", tmp.path + "/mine.toml", "--no-progress"])
        XCTAssertTrue(warned.stderr.contains("mine.toml:1:1: warning: this rule of"), warned.stderr)
        XCTAssertTrue(warned.stderr.contains("override = true"), warned.stderr)
        XCTAssertFalse(warned.stderr.contains("warning: " + "\(tmp.path)/mine.toml:1:1: warning"), "one label, not two")
        tmp.write("mine.toml", replacing + "override = true\n")
        let quiet = keyshape(["scan", tmp.path + "/tree", "--rules", tmp.path + "/mine.toml", "--no-progress"])
        XCTAssertFalse(quiet.stderr.contains("replaces an earlier rule"), quiet.stderr)
    }
}
