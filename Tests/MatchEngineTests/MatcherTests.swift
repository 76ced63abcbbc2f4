import XCTest
@testable import MatchEngine

final class MatcherTests: XCTestCase {
    func testSecretGroupDefaultsToFirstNonEmptyGroup() throws {
        let set = try rules("""
        [[rules]]
        id = "alt"
        regex = '''(?:a=(x+)|b=(y+))'''
        keywords = ["a=", "b="]
        [[rules]]
        id = "whole"
        regex = '''zz[0-9]{3}'''
        keywords = ["zz"]
        [[rules]]
        id = "explicit"
        regex = '''(k)=(v[0-9a-z]+)'''
        secretGroup = 2
        keywords = ["k="]
        """)
        XCTAssertEqual(scan(set, "b=yyy"), [Found(rule: "alt", secret: "yyy")])
        XCTAssertEqual(scan(set, "zz123"), [Found(rule: "whole", secret: "zz123")])
        // (Not `vvvv`: a repeated character is a placeholder, which no rule reports.)
        XCTAssertEqual(scan(set, "k=v7q2"), [Found(rule: "explicit", secret: "v7q2")])
    }

    func testRulesRunOnlyWhenAKeywordOccurs() throws {
        // The regex would match "sesame9", but the keyword is absent: the rule never runs.
        let set = try rules("""
        [[rules]]
        id = "gated"
        regex = '''sesame[0-9]'''
        keywords = ["password"]
        [[rules]]
        id = "ungated"
        regex = '''token[0-9]'''
        """)
        XCTAssertEqual(scan(set, "sesame9 token1"), [Found(rule: "ungated", secret: "token1")])
        XCTAssertEqual(scan(set, "PASSWORD sesame9").map(\.rule), ["gated"])
    }

    func testAllMatchesAreFoundAndMultiLineSecretsWork() throws {
        let set = try rules("""
        [[rules]]
        id = "pem"
        regex = '''-----BEGIN TEST KEY-----[\\s\\S]*?-----END TEST KEY-----'''
        keywords = ["begin test key"]
        """)
        let block = "-----BEGIN TEST KEY-----\nAAAA\nBBBB\n-----END TEST KEY-----"
        XCTAssertEqual(scan(set, "x\n\(block)\ny\n\(block)\n").count, 2)
    }

    func testCatastrophicRuleReportsFailureAndOtherRulesStillRun() throws {
        let set = try rules("""
        [[rules]]
        id = "evil"
        regex = '''(a+)+$'''
        keywords = ["aaaa"]
        [[rules]]
        id = "fine"
        regex = '''tok_[0-9]{4}'''
        keywords = ["tok_"]
        """)
        let matcher = Matcher(ruleSet: set)
        var bytes = Array(("tok_1234 " + String(repeating: "a", count: 10_000) + "b").utf8)
        var matches: [RuleMatch] = []
        var failures: [RuleFailure] = []
        let started = Date()
        bytes.withUnsafeMutableBytes { buf in
            matcher.scan(UnsafeRawBufferPointer(buf), onMatch: { matches.append($0) }, onFailure: { failures.append($0) })
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(failures.map { set.rules[$0.ruleIndex].id }, ["evil"])
        XCTAssertEqual(matches.map { set.rules[$0.ruleIndex].id }, ["fine"])
    }

    func testAcceptRangeLimitsReportedStarts() throws {
        let set = try rules("[[rules]]\nid = 'k'\nregex = 'key[0-9]'\nkeywords = ['key']\n")
        let matcher = Matcher(ruleSet: set)
        var bytes = Array("key1 key2 key3".utf8)
        var starts: [Int] = []
        bytes.withUnsafeMutableBytes { buf in
            matcher.scan(UnsafeRawBufferPointer(buf), accept: 0..<6, onMatch: { starts.append($0.secret.lowerBound) }, onFailure: { _ in })
        }
        XCTAssertEqual(starts, [0, 5])
    }

    /// The mask from the filter stage before the matcher: a rule it leaves out does not run;
    /// it is asked about a rule only once that rule has keyword hits, and once per input
    /// however many buffers share the mask.
    func testMaskLeavesRulesOutAndIsAskedOncePerRuleWithHits() throws {
        let set = try rules("""
        [[rules]]
        id = "on"
        regex = '''tok_[0-9]{4}'''
        keywords = ["tok_"]
        [[rules]]
        id = "off"
        regex = '''key_[0-9]{4}'''
        keywords = ["key_"]
        [[rules]]
        id = "quiet"
        regex = '''pin_[0-9]{4}'''
        keywords = ["pin_"]
        """)
        let matcher = Matcher(ruleSet: set)
        var asked: [String] = []
        let mask = RuleMask(undecided: RuleMask.Undecided([true, true, true])) { index in
            asked.append(set.rules[index].id)
            return set.rules[index].id != "off"
        }
        var found: [String] = []
        for _ in 0..<2 {
            var bytes = Array("tok_1234 key_5678\n".utf8)
            bytes.withUnsafeMutableBytes { buf in
                matcher.scan(UnsafeRawBufferPointer(buf), mask: mask, onMatch: { found.append(set.rules[$0.ruleIndex].id) }, onFailure: { _ in })
            }
        }
        XCTAssertEqual(found, ["on", "on"])
        XCTAssertEqual(asked.sorted(), ["off", "on"], "once a rule for both buffers; never for a rule without hits")
    }
}
