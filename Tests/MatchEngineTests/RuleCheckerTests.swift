import XCTest
@testable import MatchEngine

final class RuleCheckerTests: XCTestCase {
    func testMarkerParsing() {
        let parsed = RuleChecker.parseExample("key = \"«abc»\"")
        XCTAssertEqual(parsed?.0, "key = \"abc\"")
        XCTAssertEqual(parsed?.1, 7..<10)
        XCTAssertEqual(RuleChecker.parseExample("é«x»")?.1, 2..<3, "byte offsets")
        XCTAssertNil(RuleChecker.parseExample("no marker"))
        XCTAssertNil(RuleChecker.parseExample("«a» «b»"))
        XCTAssertNil(RuleChecker.parseExample("»a«"))
    }

    func testCheckerCatchesWrongSpansMissesAndNegativeHits() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "demo-key"
        regex = '''demo_([a-z0-9]{8})'''
        keywords = ["demo_"]
        examples = ['''x = "demo_«ab12cd34»"''', '''«demo_ab12cd34»''', '''nothing here «demo»''']
        negativeExamples = ['''demo_short''', '''demo_zz12cd34''']
        [[rules]]
        id = "Bad_Id"
        regex = 'zzz'
        keywords = ["zzz"]
        """, file: "c.toml")
        let problems = RuleChecker.check(files: [file], requireExamples: true).map(\.message)
        XCTAssertTrue(problems.contains { $0.hasPrefix("example 2 not found at bytes 0..<13 (found at 5..<13)") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("example 3 not found") }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.hasPrefix("example 1") }, "\(problems)")
        XCTAssertTrue(problems.contains("negative example 2 is reported by `demo-key`"), "\(problems)")
        XCTAssertTrue(problems.contains("id must be lowercase words joined by '-'"), "\(problems)")
        XCTAssertTrue(problems.contains("fewer than 2 examples"), "\(problems)")
    }

    func testCommonWordKeywordsFailTheBar() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "word-keyed"
        regex = '''(pat[A-Za-z0-9]{14})'''
        keywords = ["PAT", "basic", "zq9_"]
        [[rules]]
        id = "prefix-keyed"
        regex = '''(?:=|")(pat[A-Za-z0-9]{14})'''
        keywords = ["=pat", "\\"pat"]
        """, file: "w.toml")
        let problems = RuleChecker.check(files: [file], requireExamples: true).filter { $0.message.hasPrefix("keyword") }
        XCTAssertEqual(problems.map { "\($0.rule): \($0.message)" }.sorted(), [
            "word-keyed: keyword `basic` is the common word `basic`: the rule would wake on most files",
            "word-keyed: keyword `pat` is part of the common word `path`: the rule would wake on most files",
        ])
        XCTAssertTrue(RuleChecker.check(files: [file], requireExamples: false).filter { $0.message.hasPrefix("keyword") }.isEmpty,
                      "only the pack's bar (--require-examples) checks keywords")
        XCTAssertEqual(CommonWords.word(containing: "ably"), "probably")
        XCTAssertNil(CommonWords.word(containing: "ably_"), "a keyword with a separator is no word")
    }
}
