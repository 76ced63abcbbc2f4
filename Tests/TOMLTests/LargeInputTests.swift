import TOML
import XCTest

final class LargeInputTests: XCTestCase {
    /// A rule file of roughly 400 KB in the shape the scanner loads.
    static func largeRuleFile() -> String {
        var text = "title = \"large\"\n\n[extend]\nuseDefault = true\n\n"
        for index in 0..<1_500 {
            text += """
            [[rules]]
            id = "rule-\(index)"
            description = "Detects a made-up token number \(index), with a \\"quoted\\" word and é."
            regex = '''(?i)\\b((?:tok|key)_\(index)_[A-Za-z0-9_\\-]{32,64})(?:['"\\s;]|$)'''
            secretGroup = 1
            entropy = 3.\(index % 10)
            keywords = ["tok_\(index)", "key_\(index)", "x\(index)"]
            tags = ["synthetic", "test"]

            [[rules.allowlists]]
            regexes = ['''EXAMPLE''', "placeholder-\\\\d+"]
            paths = [
                '''(?i)\\.md$''',   # docs
                '''^test/''',
            ]


            """
        }
        return text
    }

    func testLargeRuleFileParses() throws {
        let text = Self.largeRuleFile()
        XCTAssertGreaterThan(text.utf8.count, 300_000)
        let table = try TOMLReader.parse(text, file: "large.toml")
        XCTAssertEqual(table["rules"]?.arrayValue?.count, 1_500)
        XCTAssertEqual(table["rules"]?.arrayValue?.last?.tableValue?["allowlists"]?.arrayValue?.count, 1)
    }

    func testLongSingleLineStaysLinear() throws {
        let entries = (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: ", ")
        let text = "t = { \(entries) }"
        let table = try TOMLReader.parse(text, file: "line.toml")
        XCTAssertEqual(table["t"]?.tableValue?.count, 20_000)
        XCTAssertEqual(table["t"]?.tableValue?.position(of: "k19999")?.line, 1)
    }
}
