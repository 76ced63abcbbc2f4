import Foundation
import XCTest

final class RulesCommandTests: XCTestCase {
    func testRulesCheckPassesOnThePack() {
        let r = keyshape(["rules", "check", "--no-builtin-rules", "--rules", Repo.path("Rules"), "--require-examples"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains(" 0 problems"), r.stdout)
    }

    func testRulesCheckFailsOnABrokenExample() {
        let tmp = TempDir()
        tmp.write("r.toml", """
        [[rules]]
        id = "demo-key"
        regex = '''demo_[0-9]{6}'''
        keywords = ["demo_"]
        examples = ['''«demo_12345»''', '''«demo_123456»''']
        negativeExamples = ['''demo_1''', '''demo_482915''']
        """)
        let r = keyshape(["rules", "check", "--no-builtin-rules", "--rules", tmp.path + "/r.toml"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("example 1 not found"), r.stdout)
        XCTAssertTrue(r.stdout.contains("negative example 2 is reported by `demo-key`"), r.stdout)
    }

    func testRulesListShowsEmbeddedRules() throws {
        let r = keyshape(["rules", "list"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("anthropic-api-key"))
        let count = Int(r.stdout.split(separator: "\n").last!.split(separator: " ")[0])!
        XCTAssertGreaterThanOrEqual(count, 20)
        let json = keyshape(["rules", "list", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: json.stdoutData) as! [String: Any]
        XCTAssertEqual(object["count"] as? Int, count)
    }

    func testGitleaksConfigLoadsUnchanged() {
        let r = keyshape(["rules", "list", "--no-builtin-rules", "--rules", Repo.path("Fixtures/rules/gitleaks-config.toml")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "no warnings for a gitleaks config")
        XCTAssertTrue(r.stdout.contains("acme-token"))
        XCTAssertFalse(r.stdout.contains("generic-api-key"), "disabledRules honoured")
    }

    func testBuiltinRulesWorkFromAnyFolder() {
        let tmp = TempDir()
        tmp.write("a.env", "X=" + "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "abcdef\n")
        let r = keyshape(["scan", "."], cwd: tmp.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.hasPrefix("a.env:1:3: keyshape-canary"), r.stdout)
    }
}
