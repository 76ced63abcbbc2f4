import Foundation
import XCTest
import MatchEngine
import ScanCore
import TestSupport
@testable import ScanPipeline

/// The scan pipeline's filter stage: rules' `path`, allowlists by path or commit and
/// gitleaks' path-only rules, which the matcher (bytes and rules only) leaves to it.
final class RuleFilterTests: XCTestCase {
    struct Seen: Equatable, CustomStringConvertible {
        var rule: String
        var secret: String
        var suppressed = false
        var description: String { "\(rule): \(secret.count) bytes\(suppressed ? ", suppressed" : "")" }
    }

    /// One buffer through the pipeline at a place: every finding (suppressed ones marked) and
    /// every failure.
    func scan(_ set: RuleSet, _ text: String, path: String?, commit: String? = nil) -> (seen: [Seen], failures: [RuleFailure]) {
        let pipeline = BufferPipeline(ruleSet: set, options: ScanOptions(jobs: 1))
        var bytes = Array(text.utf8)
        var seen: [Seen] = []
        var failures: [RuleFailure] = []
        bytes.withUnsafeMutableBytes { buf in
            let raw = UnsafeRawBufferPointer(buf)
            pipeline.scan(whole: raw, context: InputPlace(path: path, commit: commit), hashSecrets: false, onFinding: { f in
                seen.append(Seen(rule: set.rules[f.ruleIndex].id, secret: String(decoding: raw[f.range], as: UTF8.self),
                                 suppressed: f.suppression != nil))
            }, onFailure: { failures.append($0) })
        }
        return (seen, failures)
    }

    func testGitleaksConfigAtPaths() throws {
        let url = Checkout.root.appendingPathComponent("Fixtures/rules/gitleaks-config.toml")
        let file = try RuleLoader.load(text: String(contentsOf: url, encoding: .utf8), file: "gitleaks-config.toml")
        let (set, _) = RuleSet.combining([file])
        let key = "acme_" + "q7Rt2mXz9Lw4Kp8Vn3Bc6Hd1"
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n", path: "app/.env").seen, [Seen(rule: "acme-token", secret: key)])
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n", path: "app/main.go").seen, [], "the rule's path")
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n", path: nil).seen.count, 1, "no path: the rule runs")
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n", path: "vendor/x.env").seen, [Seen(rule: "acme-token", secret: key, suppressed: true)],
                       "a global path allowlist suppresses (counted)")
        // AND: both the path and the line regex must hold.
        XCTAssertEqual(scan(set, "TOKEN=\(key) # sample\n", path: "testdata/a.env").seen, [])
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n", path: "testdata/a.env").seen.count, 1)
        XCTAssertEqual(scan(set, "TOKEN=\(key) # sample\n", path: "src/a.env").seen.count, 1)
        // A rule allowlist by commit (prefix): dropped in that commit only.
        let hook = ["AbCd7xQ2", "mN9pLr4T"].joined()
        let text = "https://hooks.acme.test/\(hook)\n"
        XCTAssertEqual(scan(set, text, path: nil, commit: "deadbeef0123").seen, [])
        XCTAssertEqual(scan(set, text, path: nil, commit: "0123deadbeef").seen, [Seen(rule: "acme-webhook", secret: hook)])
    }

    /// 40 `a`s and a byte that is no `a`: `^(a+)+$` backtracks through every split of the run.
    let pathological = "'''^(a+)+$'''"
    let run = String(repeating: "a", count: 40) + "!"

    func testRulePathPatternThatGivesUpRunsTheRuleAndReportsTheFailure() throws {
        let set = RuleSet(rules: try RuleLoader.load(text: """
        [[rules]]
        id = "t"
        regex = '''tok=([a-z]{8})'''
        keywords = ["tok="]
        path = \(pathological)
        """, file: "t.toml").rules)
        let r = scan(set, "tok=qzkxvwjp\n", path: run)
        XCTAssertEqual(r.failures.map(\.stage), [.ruleCondition])
        XCTAssertEqual(r.seen.count, 1, "the rule still runs: a pattern that cannot answer never disables it")
        // A path that plainly does not match still leaves the rule out, with no failure.
        let other = scan(set, "tok=qzkxvwjp\n", path: "b.txt")
        XCTAssertEqual(other.seen.count, 0)
        XCTAssertEqual(other.failures.count, 0)
    }

    func testAllowlistPathPatternThatGivesUpReportsTheFinding() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "t"
        regex = '''tok=([a-z0-9]{20})'''
        keywords = ["tok="]
        [[allowlists]]
        paths = [\(pathological)]
        """, file: "t.toml")
        let set = RuleSet(rules: file.rules, allowlists: file.allowlists)
        let r = scan(set, "tok=q7rt2mxz9lw4kp8vn3bc\n", path: run)
        XCTAssertEqual(r.failures.map(\.stage), [.allowlist])
        XCTAssertEqual(r.seen.map(\.suppressed), [false], "reported, not suppressed")
    }

    /// One mask per input: the same for every buffer read at one path, none without a path,
    /// and a rule whose `path` does not match is left out.
    func testMaskIsKeptPerPathAndLeavesOutRulesWhosePathDoesNotMatch() throws {
        let set = RuleSet(rules: try RuleLoader.load(text: """
        [[rules]]
        id = "yaml-only"
        regex = '''tok=([a-z]{8})'''
        keywords = ["tok="]
        path = '''\\.ya?ml$'''
        [[rules]]
        id = "anywhere"
        regex = '''key=([a-z]{8})'''
        keywords = ["key="]
        """, file: "t.toml").rules)
        let filter = RuleFilter(ruleSet: set)
        XCTAssertNil(filter.mask(for: InputPlace()), "no path: every rule")
        XCTAssertNil(filter.mask(for: InputPlace(commit: "abc")))
        let yaml = try XCTUnwrap(filter.mask(for: InputPlace(path: "a/b.yml")))
        XCTAssertTrue(yaml === filter.mask(for: InputPlace(path: "a/b.yml")), "kept for the input's next buffer")
        XCTAssertEqual([yaml.runs(0), yaml.runs(1)], [true, true])
        let text = try XCTUnwrap(filter.mask(for: InputPlace(path: "a/b.txt")))
        XCTAssertFalse(text === yaml)
        XCTAssertEqual([text.runs(0), text.runs(1)], [false, true])
        XCTAssertNil(RuleFilter(ruleSet: RuleSet(rules: [set.rules[1]])).mask(for: InputPlace(path: "a/b.txt")),
                     "no rule with a path: no mask")
    }

    /// gitleaks' path-only rule (`path`, no `regex`) answers for paths.
    func testPathOnlyRuleMatchesPaths() throws {
        let set = RuleSet(rules: try RuleLoader.load(text: #"""
        [[rules]]
        id = "keystore-file"
        description = "A key store"
        path = '''(?i)\.p(?:12|fx)$'''
        """#, file: "t.toml").rules)
        let scratch = set.makeScratch()
        XCTAssertEqual(set.pathOnlyMatches("certs/Client.PFX", scratch: scratch, onFailure: { _ in }).map(\.ruleIndex), [0])
        XCTAssertEqual(set.pathOnlyMatches("certs/client.pem", scratch: scratch, onFailure: { _ in }).count, 0)
    }
}
