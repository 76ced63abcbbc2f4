import XCTest
@testable import MatchEngine

/// RE2 (gitleaks' engine) syntax that PCRE2 without UTF mode refuses, translated when a
/// user's rules file is loaded; and what PCRE2 accepts as written keeps PCRE2's meaning.
final class RE2TranslationTests: XCTestCase {
    func testWideHexEscapeBecomesItsUTF8Bytes() {
        XCTAssertEqual(RE2Translation.translate(#"a\x{2028}+b"#), #"a(?:\xE2\x80\xA8)+b"#)
        XCTAssertEqual(RE2Translation.translate(#"\x{41}"#), #"\x{41}"#, "a byte-sized code point stays")
    }

    func testNonASCIILiteralIsGroupedSoQuantifiersTakeTheWholeCharacter() {
        XCTAssertEqual(RE2Translation.translate("é+"), #"(?:\xC3\xA9)+"#)
    }

    func testClassWithNonASCIIMembersBecomesAnAlternation() {
        XCTAssertEqual(RE2Translation.translate("[a-c–]"), #"(?:[a-c]|\xE2\x80\x93)"#)
        XCTAssertEqual(RE2Translation.translate(#"[\x{2028}x]"#), #"(?:[x]|\xE2\x80\xA8)"#)
        XCTAssertEqual(RE2Translation.translate("[^–]"), "[^–]", "a negated one has no byte equivalent: left as written")
    }

    func testVerticalTabAndNamedGroups() {
        XCTAssertEqual(RE2Translation.translate(#"a\vb[\v]"#), #"a\x0Bb[\x0B]"#)
        XCTAssertEqual(RE2Translation.translate("(?P<1st>x)(?<name>y)(?<=z)(?<!w)"), "(x)(y)(?<=z)(?<!w)")
    }

    func testQuotedTextAndPOSIXClassesAreCopied() {
        XCTAssertEqual(RE2Translation.translate(#"\Q(?P<a>é\E[[:alnum:]]\z"#), #"\Q(?P<a>é\E[[:alnum:]]\z"#)
    }

    /// Each of these fails to load on PCRE2 as written (checked before RE2Translation existed:
    /// the loader threw "invalid regex") and loads and matches now.
    func testRulesPCRE2RefusesLoadAndMatchAsRE2Means() throws {
        let toml = #"""
        [[rules]]
        id = "wide-escape"
        regex = '''sep\x{2028}{2}(tok[0-9]{4})'''
        keywords = ["sep"]

        [[rules]]
        id = "digit-name"
        regex = '''key=(?P<1secret>[a-z]{6})'''
        keywords = ["key="]
        """#
        let set = try rules(toml)
        XCTAssertEqual(scan(set, "sep\u{2028}\u{2028}tok1234"), [Found(rule: "wide-escape", secret: "tok1234")])
        XCTAssertEqual(scan(set, "sep\u{2028}tok1234"), [], "the quantifier covers the whole character")
        XCTAssertEqual(scan(set, "key=abcdef"), [Found(rule: "digit-name", secret: "abcdef")])
    }

    func testPatternNeitherEngineReadsIsStillAnError() {
        XCTAssertThrowsError(try rules(#"""
        [[rules]]
        id = "broken"
        regex = '''(unclosed'''
        """#)) { error in
            XCTAssertTrue("\(error)".contains("invalid regex"), "\(error)")
        }
    }

    /// gitleaks' path-only rule (`path`, no `regex`) loads and never runs on bytes (the scan
    /// pipeline answers for paths: RuleFilterTests).
    func testPathOnlyRuleLoadsAndNeverRunsOnBytes() throws {
        let set = try rules(#"""
        [[rules]]
        id = "keystore-file"
        description = "A key store"
        path = '''(?i)\.p(?:12|fx)$'''
        """#)
        XCTAssertEqual(set.rules.map(\.pathOnly), [true])
        XCTAssertEqual(scan(set, "anything at all"), [], "the matcher never runs a path-only rule")
        XCTAssertEqual(set.pathOnlyRules, [0])
    }

    func testRuleWithNeitherRegexNorPathIsAnError() {
        XCTAssertThrowsError(try rules("[[rules]]\nid = \"empty\"\n"))
    }
}
