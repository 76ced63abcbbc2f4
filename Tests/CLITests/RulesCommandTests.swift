import Foundation
import XCTest
import TestSupport

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

    /// A rule's own example that the placeholder filter drops makes no finding, not even a
    /// suppressed one: `rules check` names the check that dropped it, never the value.
    func testRulesCheckSaysWhyAnExampleIsDroppedAsAPlaceholder() {
        let tmp = TempDir()
        tmp.write("p.toml", """
        [[rules]]
        id = "demo-token"
        regex = '''(demo_[a-z0-9]{16})'''
        keywords = ["demo_"]
        examples = ['''t = "«demo_abcdefghijklmnop»"''', '''t = "«demo_k3v9q2m7x4w8z1r6»"''']
        negativeExamples = ['''demo_1''', '''demo_x''']
        """)
        let r = keyshape(["rules", "check", "--no-builtin-rules", "--rules", tmp.path + "/p.toml"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("demo-token: example 1 not found at bytes 5..<26: the value is dropped as a placeholder (a counting run)"),
                      r.stdout)
        XCTAssertFalse(r.stdout.contains("example 2"), r.stdout)
        XCTAssertFalse((r.stdout + r.stderr).contains("abcdefghij"), "the value is never printed")
    }

    func testRulesListShowsEmbeddedRules() throws {
        let r = keyshape(["rules", "list"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("anthropic-api-key"))
        let count = Int(r.stdout.split(separator: "\n").last!.split(separator: " ")[0])!
        XCTAssertGreaterThanOrEqual(count, 20)
        let json = keyshape(["rules", "list", "--format", "json"])
        let object = try XCTUnwrap(json.report)
        XCTAssertEqual(object["count"] as? Int, count)
    }

    /// One small rules file, so each format's whole output can be checked.
    func twoRules(_ tmp: TempDir) -> [String] {
        tmp.write("r.toml", """
        [[rules]]
        id = "alpha-key"
        description = "Alpha key"
        regex = '''alpha_[0-9]{8}'''
        keywords = ["alpha_"]
        tags = ["demo"]

        [[rules]]
        id = "beta-key"
        description = "Beta key"
        regex = '''beta_[a-z]{8}'''
        keywords = ["beta_"]
        """)
        return ["rules", "list", "--no-builtin-rules", "--rules", tmp.path + "/r.toml"]
    }

    /// `rules list --format` renders through the report-format registry, each format in its
    /// own shape: it used to print the same JSON object whatever the format.
    func testRulesListFormatsHaveTheirOwnShapes() throws {
        let tmp = TempDir()
        let list = twoRules(tmp)

        let text = keyshape(list)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "alpha-key  Alpha key  [demo]\nbeta-key   Beta key\n2 rules\n")
        XCTAssertEqual(keyshape(list + ["--format", "text"]).stdout, text.stdout, "text is the default")

        let json = keyshape(list + ["--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(json.report)
        XCTAssertEqual(object["count"] as? Int, 2)
        let rules = try XCTUnwrap(object["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["alpha-key", "beta-key"])
        XCTAssertEqual(rules[0]["keywords"] as? [String], ["alpha_"])
        XCTAssertEqual(rules[0]["tags"] as? [String], ["demo"])
        XCTAssertEqual(rules[1]["regex"] as? String, "beta_[a-z]{8}")

        let jsonl = keyshape(list + ["--format", "jsonl"])
        XCTAssertEqual(jsonl.status, 0, jsonl.stderr)
        let lines = jsonl.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, "one rule a line, then the final newline: \(jsonl.stdout)")
        XCTAssertEqual(lines.last, "")
        let ids = lines.dropLast().map { line -> String? in
            let rule = JSONReport.object(line)
            XCTAssertNil(rule?["count"], "a rule, not the whole list")
            return rule?["id"] as? String
        }
        XCTAssertEqual(ids, ["alpha-key", "beta-key"])

        let csv = keyshape(list + ["--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertEqual(csv.stdout, "id,description,tags,keywords\r\nalpha-key,Alpha key,demo,alpha_\r\nbeta-key,Beta key,,beta_\r\n")

        // --output writes the same shape to a file.
        let out = tmp.path + "/rules.jsonl"
        XCTAssertEqual(keyshape(list + ["--format", "jsonl", "--output", out]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), jsonl.stdout)
    }

    /// A format the registry has but with no rule-list form is a usage error naming the ones
    /// that have one; an unknown one is not echoed.
    func testRulesListRefusesFormatsWithoutARuleList() {
        let tmp = TempDir()
        let list = twoRules(tmp)
        for format in ["sarif", "junit"] {
            let r = keyshape(list + ["--format", format])
            XCTAssertEqual(r.status, 2, format)
            XCTAssertEqual(r.stdout, "", "\(format): nothing printed, not JSON")
            XCTAssertTrue(r.stderr.contains("--format \(format) has no rule-list form; `rules list` writes text, json, jsonl or csv"), r.stderr)
        }
        let unknown = keyshape(list + ["--format", "x\u{1B}[2Jyaml"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.contains("--format: expected text, json, jsonl or csv for `rules list`"), unknown.stderr)
        XCTAssertFalse(unknown.stderr.contains("yaml"), "the value is not echoed")
        // Scanning commands still take every format.
        let scan = keyshape(["scan", tmp.path, "--format", "junit", "--no-builtin-rules", "--rules", tmp.path + "/r.toml"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertTrue(scan.stdout.hasPrefix("<?xml"), scan.stdout)
    }

    /// `rules list --help` says which formats it writes, from the same registry.
    func testRulesListHelpNamesItsFormats() {
        let r = keyshape(["rules", "list", "--help"])
        XCTAssertEqual(r.status, 0)
        let line = r.stdout.split(separator: "\n").first { $0.contains("--format") }.map(String.init) ?? ""
        XCTAssertTrue(line.contains("`rules list`: text|json|jsonl|csv"), line)
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
