import Foundation
import XCTest
import ScanCore
@testable import MatchEngine

/// Severity, confidence, remediation and docs: per rule, defaulted by a rule file's
/// `[defaults]`, and present on every rule of the pack.
final class RuleMetadataTests: XCTestCase {
    func testDefaultsTableFillsWhatARuleDoesNotSet() throws {
        let file = try RuleLoader.load(text: """
        [defaults]
        severity = "critical"
        confidence = "high"
        remediation = "Revoke it at the provider."
        docs = "https://provider.test/docs/tokens"

        [[rules]]
        id = "plain"
        regex = '''p_[0-9]{8}'''
        keywords = ["p_"]

        [[rules]]
        id = "own"
        regex = '''o_[0-9]{8}'''
        keywords = ["o_"]
        severity = "low"
        remediation = "Nothing to revoke: a test key."
        """, file: "t.toml")
        XCTAssertEqual(file.warnings.map(\.description), [])
        let plain = file.rules[0], own = file.rules[1]
        XCTAssertEqual(plain.effectiveSeverity, .critical)
        XCTAssertEqual(plain.defaultConfidence, .high)
        XCTAssertEqual(plain.remediation, "Revoke it at the provider.")
        XCTAssertEqual(plain.docs, "https://provider.test/docs/tokens")
        XCTAssertEqual(own.effectiveSeverity, .low)
        XCTAssertEqual(own.remediation, "Nothing to revoke: a test key.")
        XCTAssertEqual(own.docs, "https://provider.test/docs/tokens", "what the rule does not set comes from [defaults]")
        let info = RuleSet(rules: file.rules).ruleInfos[1]
        XCTAssertEqual(info.severity, .low)
        XCTAssertEqual(info.remediation, "Nothing to revoke: a test key.")
    }

    func testWithoutMetadataTheKindDecides() throws {
        let set = try rules("""
        [[rules]]
        id = "acme-token"
        regex = '''a_[0-9]{8}'''
        keywords = ["a_"]
        [[rules]]
        id = "generic-password"
        regex = '''pw=([0-9]{8})'''
        keywords = ["pw="]
        """)
        XCTAssertEqual(set.rules.map(\.effectiveSeverity), [.high, .medium])
        XCTAssertEqual(set.rules.map(\.defaultConfidence), [.medium, .low])
        XCTAssertNil(set.rules[0].remediation)
    }

    func testBadValuesAreLoadErrors() {
        for bad in ["severity = \"urgent\"", "docs = \"javascript:alert(1)\"", "[defaults]\nseverity = \"urgent\""] {
            let text = bad.hasPrefix("[defaults]") ? bad + "\n[[rules]]\nid = \"a\"\nregex = 'x'\nkeywords = ['x']\n"
                                                   : "[[rules]]\nid = \"a\"\nregex = 'x'\nkeywords = ['x']\n" + bad + "\n"
            XCTAssertThrowsError(try RuleLoader.load(text: text, file: "t.toml"), bad)
        }
        XCTAssertEqual(Severity.allCases.map(\.securitySeverity), ["3.0", "5.5", "8.0", "9.5"])
    }

    /// Every rule of the pack says what to do about a leak; the big providers link their docs.
    func testPackRulesCarryMetadata() throws {
        let dir = Paths.root.appendingPathComponent("Rules")
        var byID: [String: Rule] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".toml") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for rule in try RuleLoader.load(text: text, file: name).rules {
                XCTAssertNotNil(rule.severity, rule.id)
                XCTAssertNotNil(rule.confidence, rule.id)
                XCTAssertFalse(rule.remediation?.isEmpty ?? true, rule.id)
                byID[rule.id] = rule
            }
        }
        for id in ["aws-access-key-id", "github-pat", "gitlab-pat", "slack-bot-token", "stripe-live-secret-key", "google-api-key",
                   "azure-storage-account-key", "openai-project-api-key", "anthropic-api-key", "npm-access-token", "pypi-upload-token"] {
            XCTAssertTrue(byID[id]?.docs?.hasPrefix("https://") ?? false, id)
        }
        XCTAssertEqual(byID["stripe-test-secret-key"]?.severity, .low)
        XCTAssertEqual(byID["aws-access-key-id"]?.severity, .critical)
        XCTAssertEqual(byID["generic-password"].map { $0.defaultConfidence } ?? .low, .low)
    }
}
