import Foundation
import XCTest
import TestSupport

/// `--enable-rule ID` (only these) and `--disable-rule ID`, for every command that loads rules.
final class RuleSelectionTests: XCTestCase {
    let secret = canary("select1")

    func testEnableAndDisableChooseTheRulesThatRun() {
        let tmp = TempDir()
        tmp.write("a.txt", "token = \(secret)\n")
        XCTAssertEqual(keyshape(["scan", tmp.path]).status, 1)
        XCTAssertEqual(keyshape(["scan", tmp.path, "--disable-rule", "keyshape-canary"]).status, 0)
        XCTAssertEqual(keyshape(["scan", tmp.path, "--enable-rule", "github-pat"]).status, 0, "only github-pat runs")
        XCTAssertEqual(keyshape(["scan", tmp.path, "--enable-rule", "github-pat", "--enable-rule", "keyshape-canary"]).status, 1)
        let list = keyshape(["rules", "list", "--enable-rule", "keyshape-canary", "--enable-rule", "github-pat"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.hasSuffix("2 rules\n"), list.stdout)
        let fewer = keyshape(["rules", "list", "--disable-rule", "keyshape-canary"])
        XCTAssertFalse(fewer.stdout.contains("keyshape-canary"), fewer.stdout)
        let check = keyshape(["rules", "check", "--no-builtin-rules", "--rules", Repo.path("Rules/canary.toml"), "--enable-rule", "keyshape-canary"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("1 rules,"), check.stdout)
        let none = keyshape(["scan", tmp.path, "--no-builtin-rules", "--rules", Repo.path("Rules/canary.toml"), "--disable-rule", "keyshape-canary"])
        XCTAssertEqual(none.status, 2, "disabling every rule is no scan: \(none.stderr)")
    }

    func testGitCommandsTakeTheFlagsToo() {
        let repo = GitFixture()
        repo.write("a.txt", "token = \(secret)\n")
        repo.git(["add", "-A"])
        XCTAssertEqual(keyshape(["staged", repo.path]).status, 1)
        XCTAssertEqual(keyshape(["staged", repo.path, "--disable-rule", "keyshape-canary"]).status, 0)
        repo.commit("one")
        for command in ["history", "audit"] {
            XCTAssertEqual(keyshape([command, repo.path, "--no-progress"]).status, 1, command)
            XCTAssertEqual(keyshape([command, repo.path, "--no-progress", "--disable-rule", "keyshape-canary"]).status, 0, command)
            XCTAssertEqual(keyshape([command, repo.path, "--no-progress", "--enable-rule", "github-pat"]).status, 0, command)
        }
    }

    /// An unknown id is a usage error; the argument is echoed only when it looks like a rule id.
    func testUnknownIdIsAUsageErrorThatEchoesOnlyIdShapedArguments() {
        let tmp = TempDir()
        tmp.write("a.txt", "nothing\n")
        for flag in ["--enable-rule", "--disable-rule"] {
            let typo = keyshape(["scan", tmp.path, flag, "github-pats"])
            XCTAssertEqual(typo.status, 2, flag)
            XCTAssertTrue(typo.stderr.contains("\(flag) `github-pats`: no loaded rule has this id"), typo.stderr)
            for hostile in [secret, "evil\u{1b}[2Jrule", "Upper-Case", String(repeating: "a", count: 101), "a--b"] {
                let r = keyshape(["scan", tmp.path, flag, hostile])
                XCTAssertEqual(r.status, 2, "\(flag) \(hostile.debugDescription)")
                XCTAssertTrue(r.stderr.contains("not a rule id, not shown"), r.stderr)
                XCTAssertFalse(r.stderr.contains(hostile), "echoed: \(r.stderr.debugDescription)")
                XCTAssertFalse(r.stderr.contains("\u{1b}"), "a control byte reached stderr")
                assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
            }
        }
        let r = keyshape(["rules", "list", "--enable-rule", "nope-nope"])
        XCTAssertEqual(r.status, 2)
    }
}
