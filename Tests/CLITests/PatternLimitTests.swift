import Foundation
import XCTest
import TestSupport

/// A rule `path` pattern or an allowlist pattern that hits PCRE2's match limit is an error
/// entry (exit 2), never a rule or an allowlist silently switched off: the rule runs and the
/// finding is reported.
final class PatternLimitTests: XCTestCase {
    /// `^(a+)+$` against 40 `a`s and a byte that is not one backtracks past any match limit.
    let pathological = "'''^(a+)+$'''"
    let fileName = String(repeating: "a", count: 40) + "!.txt"
    let secret = canary("limit1")

    func testRulePathPatternThatGivesUpIsAnErrorAndTheRuleStillRuns() {
        let tmp = TempDir()
        tmp.write("rules.toml", """
        [[rules]]
        id = "limited"
        description = "canary in some paths"
        regex = '''(TEST_SECRET_MUST_NEVER_LEAK_[A-Za-z0-9]{5,})'''
        keywords = ["test_secret_must_never_leak_"]
        path = \(pathological)
        """)
        tmp.write("tree/\(fileName)", "token = \(secret)\n")
        let r = keyshape(["scan", tmp.path + "/tree", "--no-builtin-rules", "--rules", tmp.path + "/rules.toml", "--format", "json"])
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
        XCTAssertEqual(r.status, 2, r.stderr)
        let object = r.report ?? [:]
        XCTAssertEqual((object["findings"] as? [[String: Any]])?.first?["rule"] as? String, "limited", "the rule ran")
        let errors = object["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors.map { $0["path"] ?? "" }, [fileName])
        XCTAssertTrue(errors.first?["message"]?.contains("path pattern gave up") ?? false, "\(errors)")

        // history checks a rule's path when it attributes: the same there.
        let repo = GitFixture()
        repo.write(fileName, "token = \(secret)\n")
        repo.commit("one")
        let h = keyshapeJSON(["history", repo.path, "--no-builtin-rules", "--rules", tmp.path + "/rules.toml"], secrets: [secret])
        XCTAssertEqual(h.run.status, 2, h.run.stderr)
        XCTAssertEqual(h.findings.map(\.rule), ["limited"])
        XCTAssertTrue(h.errors.contains { $0["message"]?.contains("path pattern gave up") ?? false }, "\(h.errors)")
    }

    func testAllowlistPatternThatGivesUpReportsTheFinding() {
        // The run of `a` that makes the pattern give up sits after a space, outside the secret:
        // a secret ending in 40 `a`s would be a placeholder, which no rule reports.
        for allowlist in ["paths = [\(pathological)]", "regexTarget = 'line'\nregexes = ['''^token = TEST\\w+ (a|a)+[0-9]''']"] {
            let tmp = TempDir()
            // The user's config: a repository's value checks do not judge builtin rules.
            tmp.write("cfg/user.toml", "[[allowlists]]\n\(allowlist)\n")
            tmp.write("tree/" + fileName, "token = \(secret) \(String(repeating: "a", count: 40))\n")
            let r = keyshape(["scan", tmp.path + "/tree", "--config", tmp.path + "/cfg/user.toml", "--format", "json"])
            assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
            XCTAssertEqual(r.status, 2, "\(allowlist): \(r.stderr)")
            let object = r.report ?? [:]
            XCTAssertEqual((object["findings"] as? [Any])?.count, 1, "\(allowlist): reported, not suppressed")
            let errors = object["errors"] as? [[String: String]] ?? []
            XCTAssertTrue(errors.contains { $0["message"]?.contains("an allowlist pattern gave up") ?? false }, "\(allowlist): \(errors)")
        }
    }
}
