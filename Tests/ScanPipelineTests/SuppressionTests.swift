import Foundation
import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// Allowlists, inline markers and baselines suppress findings, and every suppressed finding
/// is counted (and kept when asked), never silently dropped.
final class SuppressionTests: XCTestCase {
    func rulesWith(allowlist toml: String) throws -> RuleSet {
        let base = TestRules.set()
        let file = try RuleLoader.load(text: toml, file: "config.toml", kind: .config)
        return RuleSet(rules: base.rules, allowlists: file.allowlists)
    }

    func tree() -> TempDir {
        let tree = TempDir()
        tree.write("src/a.txt", "key = \(TestRules.canary)\n")
        tree.write("src/b.txt", "key = \(TestRules.canary)0 // keyshape:allow\n")
        tree.write("fixtures/c.txt", "key = \(TestRules.canary)1\n")
        tree.write("docs/d.txt", "key = \(TestRules.canary)2 example\n")
        return tree
    }

    func testEachMechanismIsCountedOnce() throws {
        let t = tree()
        let set = try rulesWith(allowlist: "[[allowlists]]\nregexTarget = 'line'\nregexes = ['''example''']\n")
        let first = runScan([t.path], rules: set)
        XCTAssertEqual(first.findings.map { $0.location.path! }, ["fixtures/c.txt", "src/a.txt"])
        XCTAssertEqual(first.stats.suppressed, SuppressionCounts(allowlist: 1, inline: 1, baseline: 0))
        XCTAssertEqual(first.suppressed, [], "kept only when asked")
        let baseline = Set(first.findings.filter { $0.location.path == "fixtures/c.txt" }.map(\.fingerprint))
        let second = runScan([t.path], rules: set) { $0.baseline = baseline }
        XCTAssertEqual(second.findings.map { $0.location.path! }, ["src/a.txt"])
        XCTAssertEqual(second.stats.suppressed, SuppressionCounts(allowlist: 1, inline: 1, baseline: 1))
    }

    func testKeptSuppressedFindingsCarryTheirReasonAndRealHashes() throws {
        let t = tree()
        let set = try rulesWith(allowlist: "[[allowlists]]\nregexTarget = 'line'\nregexes = ['''example''']\n")
        let plain = runScan([t.path], rules: set)
        let kept = runScan([t.path], rules: set) { $0.keepSuppressed = true }
        XCTAssertEqual(kept.findings, plain.findings, "keeping suppressed findings changes nothing reported")
        XCTAssertEqual(kept.suppressed.map { "\($0.finding.location.path!) \($0.suppression)" }, ["docs/d.txt allowlist", "src/b.txt inline"])
        // The real (stretched, keyed) secret hash: the same value reported elsewhere hashes the same.
        let t2 = TempDir()
        t2.write("x.txt", "key = \(TestRules.canary)0\n")
        let reported = runScan([t2.path]).findings[0]
        XCTAssertEqual(kept.suppressed.first { $0.suppression == .inline }?.finding.secretHash, reported.secretHash)
    }

    func testIgnoreInlineAllowReportsMarkedLines() {
        let t = tree()
        let marked = runScan([t.path]) { $0.ignoreInlineAllow = true }
        XCTAssertTrue(marked.findings.contains { $0.location.path == "src/b.txt" })
        XCTAssertEqual(marked.stats.suppressed.inline, 0)
        XCTAssertEqual(runScan([t.path]).stats.suppressed.inline, 1)
    }

    func testFilesAPathOnlyAllowlistCoversAreCounted() throws {
        let t = tree()
        let set = try rulesWith(allowlist: "[[allowlists]]\npaths = ['''^fixtures/''', '''^docs/''']\n")
        let result = runScan([t.path], rules: set)
        XCTAssertEqual(result.findings.map { $0.location.path! }, ["src/a.txt"])
        XCTAssertEqual(result.stats.allowlistedFiles, 2)
        XCTAssertEqual(result.stats.files, 2, "the allowlisted files were not read")
    }

    /// An allowlist regex that gives up on a long secret: the finding is reported (fail
    /// closed) and the file has an error entry.
    func testAllowlistThatGivesUpReportsTheFindingAndAnError() throws {
        let t = TempDir()
        // 40 letters a and b in no repeating order (a run of one letter is a placeholder, no
        // secret at all): `([ab]|[ab])+` tries 2^40 ways before it fails at the newline.
        var g = SeededGenerator(seed: 12345)
        let tail = String((0..<40).map { _ in g.pick(["a", "b"] as [Character]) })
        t.write("a.txt", "key = \(TestRules.canary)\(tail)\n")
        let set = try rulesWith(allowlist: "[[allowlists]]\nregexes = ['''^TEST\\w+([ab]|[ab])+[0-9]''']\n")
        let result = runScan([t.path], rules: set)
        XCTAssertEqual(result.findings.count, 1)
        XCTAssertEqual(result.stats.suppressed.total, 0)
        XCTAssertEqual(result.issues.count, 1)
        XCTAssertTrue(result.issues.first?.message.contains("allowlist pattern gave up") ?? false, "\(result.issues)")
    }
}
