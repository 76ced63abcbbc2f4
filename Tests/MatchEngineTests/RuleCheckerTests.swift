import XCTest
import ScanCore
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

    /// An example the engine drops before any allowlist says why (the check that dropped it),
    /// and never prints the value: a placeholder makes no finding, so not even
    /// `--include-suppressed` would show the rule author anything.
    func testDroppedExampleSaysWhichCheckDroppedIt() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "acme-token"
        regex = '''(acme_[A-Za-z0-9+/=]{12,40})'''
        keywords = ["acme_"]
        entropy = 3.0
        examples = ['''t = "«acme_abcdefghijklmnop»"''', '''t = "«acme_aB3cD+eF9gHi/Jk2LmN0pQ8rStU=»"''', '''t = "«acme_q7Zk3mPxR2vL9sWd»"''', '''t = "«acme_abababababab»"''']
        """, file: "p.toml")
        let problems = RuleChecker.check(files: [file], requireExamples: false).map(\.message)
        XCTAssertTrue(problems.contains("example 1 not found at bytes 5..<26: the value is dropped as a placeholder (a counting run)"), "\(problems)")
        XCTAssertTrue(problems.contains("example 2 not found at bytes 5..<38: the value is dropped as a placeholder (the alphabet spelled in order between digits and signs)"), "\(problems)")
        XCTAssertFalse(problems.contains { $0.hasPrefix("example 3") }, "a random value is found: \(problems)")
        XCTAssertTrue(problems.contains("example 4 not found at bytes 5..<22: the value's entropy is not over the rule's gate (3.0)"), "\(problems)")
        for message in problems {
            for value in ["abcdefghijklmnop", "aB3cD", "abababab"] { XCTAssertFalse(message.contains(value), message) }
        }
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
        let problems = RuleChecker.check(files: [file], requireExamples: true).filter { $0.message.contains("common word") }
        XCTAssertEqual(problems.map { "\($0.rule): \($0.message)" }.sorted(), [
            "word-keyed: keyword `basic` is the common word `basic`: the rule would wake on most files",
            "word-keyed: keyword `pat` is part of the common word `path`: the rule would wake on most files",
        ])
        XCTAssertTrue(RuleChecker.check(files: [file], requireExamples: false).filter { $0.message.hasPrefix("keyword") }.isEmpty,
                      "only the pack's bar (--require-examples) checks keywords")
        XCTAssertEqual(CommonWords.word(containing: "ably"), "probably")
        XCTAssertNil(CommonWords.word(containing: "ably_"), "a keyword with a separator is no word")
    }

    /// Punctuation and short fragments select nothing either: `://` is in every file with a URL.
    /// A short keyword passes only where the rule vouches for it as its token's own prefix.
    func testPunctuationAndShortKeywordsFailTheBarUnlessVouchedFor() throws {
        let file = try RuleLoader.load(text: #"""
        [[rules]]
        id = "url-keyed"
        regex = '''https?://[a-z]{3,}:([A-Za-z0-9]{8,})@'''
        keywords = ["://", "z9", "type =", "https://"]
        [[rules]]
        id = "prefix-keyed"
        regex = '''(sg\.[A-Za-z0-9]{22}|x~[0-9]{9})'''
        keywords = ["SG.", "x~", "-- ", "\n:"]
        distinctiveKeywords = ["Sg.", "x~", "zz_"]
        """#, file: "p.toml")
        let isBar: (RuleCheckProblem) -> Bool = { $0.message.hasPrefix("keyword") || $0.message.hasPrefix("`distinctiveKeywords`") }
        let bar = RuleChecker.check(files: [file], requireExamples: true).filter(isBar).map { "\($0.rule): \($0.message)" }.sorted()
        let advice = ": make it longer, or list it in `distinctiveKeywords` if it is the token's own distinctive prefix"
        XCTAssertEqual(bar, [
            "prefix-keyed: `distinctiveKeywords` lists `zz_`, which is not one of the rule's keywords",
            "prefix-keyed: keyword `\n:` is only punctuation or whitespace, which most files hold" + advice,
            "prefix-keyed: keyword `-- ` is only punctuation or whitespace, which most files hold" + advice,
            "url-keyed: keyword `://` is only punctuation or whitespace, which most files hold" + advice,
            "url-keyed: keyword `z9` is shorter than 4 characters, which many files hold" + advice,
        ], "`type =` and `https://` are long enough; `sg.` (any case) and `x~` are vouched for")
        // Messages carry the rule file's text as it is; `rules check` escapes each problem as
        // it prints it (DisplayText), so the newline reaches the terminal as `\n`, once.
        XCTAssertTrue(bar.contains { DisplayText.escaped($0).contains(#"keyword `\n:` is only"#) }, "the newline is printed escaped")
        XCTAssertTrue(RuleChecker.check(files: [file], requireExamples: false).filter(isBar).isEmpty,
                      "only the pack's bar (--require-examples) checks keywords")
        XCTAssertEqual(file.rules[1].distinctiveKeywords, ["sg.", "x~", "zz_"], "the loader reads the list, lowercased")
    }
}
