import Foundation
import XCTest
@testable import MatchEngine

/// An allowlist pattern that hits PCRE2's match limit must not hide a finding: the match is
/// reported and the failure handed on as an error. (Path patterns are the scan pipeline's:
/// RuleFilterTests.)
final class AllowlistFailureTests: XCTestCase {
    /// 40 `a`s and a byte that is no `a`: `^(a+)+$` backtracks through every split of the run.
    let pathological = "'''^(a+)+$'''"
    let run = String(repeating: "a", count: 40) + "!"

    func scanAll(_ set: RuleSet, _ text: String, reportAllowlisted: Bool = false) -> (matches: [RuleMatch], failures: [RuleFailure]) {
        // The pathological run is itself placeholder-shaped (one repeated letter): the filter
        // is off so it reaches the allowlist under test.
        let matcher = Matcher(ruleSet: set, mode: MatchMode(reportsAllowlisted: reportAllowlisted, dropsPlaceholders: false,
                                                            genericsYield: true, defers: false))
        var matches: [RuleMatch] = []
        var failures: [RuleFailure] = []
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buf in
            matcher.scan(UnsafeRawBufferPointer(buf), onMatch: { matches.append($0) }, onFailure: { failures.append($0) })
        }
        return (matches, failures)
    }

    func testAllowlistPatternThatGivesUpReportsTheFinding() throws {
        for key in ["regexes"] {
            let file = try RuleLoader.load(text: """
            [[rules]]
            id = "t"
            regex = '''tok=([a!]{20,})'''
            keywords = ["tok="]
            [[allowlists]]
            \(key) = [\(pathological)]
            """, file: "t.toml")
            let set = RuleSet(rules: file.rules, allowlists: file.allowlists)
            let r = scanAll(set, "tok=\(run)\n", reportAllowlisted: true)
            XCTAssertEqual(r.failures.map(\.stage), [.allowlist], key)
            XCTAssertEqual(r.matches.map(\.allowlisted), [false], "\(key): reported, not suppressed")
        }
    }

    /// Global allowlists mark what they allow (the scanner counts it); a rule's own allowlists
    /// are part of the rule and drop what they allow.
    func testGloballyAllowlistedMatchesAreHandedOnMarkedWhenAsked() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "t"
        regex = '''tok=([a-z]{8})'''
        keywords = ["tok="]
        [[rules.allowlists]]
        stopwords = ["mock"]
        [[allowlists]]
        stopwords = ["fake"]
        """, file: "t.toml")
        let set = RuleSet(rules: file.rules, allowlists: file.allowlists)
        let text = "tok=fakeabcd tok=realabcd tok=mockabcd\n"
        XCTAssertEqual(scanAll(set, text).matches.count, 1, "dropped by default (rules check, redaction)")
        let marked = scanAll(set, text, reportAllowlisted: true).matches
        XCTAssertEqual(marked.map(\.allowlisted), [true, false], "the rule's own allowlist drops tok=mock…")
    }
}
