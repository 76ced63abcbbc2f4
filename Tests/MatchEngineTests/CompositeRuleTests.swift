import XCTest
@testable import MatchEngine

/// gitleaks' composite rules: `[[rules.required]]` with withinLines / withinColumns, and
/// `skipReport` components.
final class CompositeRuleTests: XCTestCase {
    /// One `[[rules]]` entry whose secret is `body` right after `prefix`, keyed on the prefix,
    /// followed by `extra` lines (`skipReport`, `required(...)`, allowlists). Every rule set
    /// below is made of these.
    static func rule(_ id: String, _ prefix: String, _ body: String, _ extra: String...) -> String {
        (["[[rules]]", "id = \"\(id)\"", "regex = '''\(prefix)(\(body))'''", "keywords = [\"\(prefix)\"]"] + extra)
            .joined(separator: "\n") + "\n"
    }

    /// A `[[rules.required]]` entry of the rule it follows.
    static func required(_ id: String, withinLines: Int? = nil, withinColumns: Int? = nil) -> String {
        (["[[rules.required]]", "id = \"\(id)\""] + [withinLines.map { "withinLines = \($0)" }, withinColumns.map { "withinColumns = \($0)" }]
            .compactMap { $0 }).joined(separator: "\n")
    }

    static let skipReport = "skipReport = true"
    /// The component and the secret that requires it, in the tests of windows and allowlists.
    static func part(_ extra: String...) -> String { rule("part", "part_", "[a-z]{6}", ([skipReport] + extra).joined(separator: "\n")) }
    static func whole(_ extra: String...) -> String { rule("whole", "whole_", "[a-z]{6}", extra.joined(separator: "\n")) }

    /// An id-shaped token a secret needs to be usable, and the secret itself: both made up.
    static let config = rule("acme-client-id", "acmeid_", "[0-9a-f]{8}", skipReport)
        + rule("acme-region", "region=", "eu|us")
        + rule("acme-secret", "acmesec_", "[A-Za-z0-9]{12}", required("acme-client-id", withinLines: 1), required("acme-region"))

    let id = "acmeid_" + "0a1b2c3d"
    let secret = "acmesec_" + "Q7wE9rT2yU4i"

    func testReportsOnlyWhenEveryRequiredRuleMatchesInItsWindow() throws {
        let set = try rules(Self.config)
        let both = "\(id)\n\(secret)\nregion=eu\n"
        XCTAssertEqual(scan(set, both), [Found(rule: "acme-region", secret: "eu"), Found(rule: "acme-secret", secret: "Q7wE9rT2yU4i")],
                       "the skipReport component reports nothing itself; the region has no requirements")
        XCTAssertEqual(scan(set, "\(secret)\nregion=eu\n").map(\.rule), ["acme-region"], "no client id: the secret is not reported")
        XCTAssertEqual(scan(set, "\(id)\n\(secret)\n").map(\.rule), [], "no region anywhere: not reported")
        XCTAssertEqual(scan(set, "\(id)\n\n\(secret)\nregion=us\n").map(\.rule), ["acme-region"],
                       "the client id two lines away is outside withinLines = 1")
        XCTAssertEqual(scan(set, "region=us\n\n\n\n\(secret) \(id)").map(\.rule), ["acme-region", "acme-secret"],
                       "no bound on the region: anywhere in the buffer; the id on the same line")
    }

    func testWithinColumnsMeasuresFromEachSecretsFirstColumn() throws {
        let set = try rules(Self.part() + Self.whole(Self.required("part", withinLines: 2, withinColumns: 4)))
        // Secrets start at column 6 ("whole_") and 5 ("part_"): 1 apart.
        XCTAssertEqual(scan(set, "whole_abcdef\npart_ghijkl\n").map(\.rule), ["whole"])
        // Here the part's secret starts 20 columns further right.
        XCTAssertEqual(scan(set, "whole_abcdef\n" + String(repeating: " ", count: 20) + "part_ghijkl\n").map(\.rule), [])
    }

    /// A component an allowlist allows is no match in gitleaks, so it satisfies nothing.
    func testAnAllowlistedComponentDoesNotCount() throws {
        let set = try rules(Self.part("[[rules.allowlists]]", "stopwords = [\"sample\"]") + Self.whole(Self.required("part")))
        XCTAssertEqual(scan(set, "whole_abcdef part_sample").map(\.rule), [])
        XCTAssertEqual(scan(set, "whole_abcdef part_ghijkl").map(\.rule), ["whole"])
    }

    func testARequiredIdNoRuleHasMeansTheRuleNeverReports() throws {
        let file = try RuleLoader.load(text: Self.whole(Self.required("missing-part")), file: "t.toml")
        XCTAssertEqual(scan(RuleSet(rules: file.rules), "whole_abcdef").map(\.rule), [])
        let warnings = RuleFile.unknownIdWarnings([file]).map(\.description)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("requires rule `missing-part`"), warnings[0])
    }

    func testBadRequiredEntriesAreErrors() {
        XCTAssertThrowsError(try rules("[[rules]]\nid = 'a'\nregex = 'x'\n[[rules.required]]\nwithinLines = 1\n"))
        XCTAssertThrowsError(try rules("[[rules]]\nid = 'a'\nregex = 'x'\n[[rules.required]]\nid = 'b'\nwithinLines = -1\n"))
    }

    /// The builder writes what the tests above once spelled out.
    func testTheRuleBuilderWritesTheTOMLItNames() throws {
        XCTAssertEqual(Self.whole(Self.required("part", withinLines: 2, withinColumns: 4)), """
        [[rules]]
        id = "whole"
        regex = '''whole_([a-z]{6})'''
        keywords = ["whole_"]
        [[rules.required]]
        id = "part"
        withinLines = 2
        withinColumns = 4

        """)
        let file = try RuleLoader.load(text: Self.config, file: "t.toml")
        XCTAssertEqual(file.rules.map(\.id), ["acme-client-id", "acme-region", "acme-secret"])
        XCTAssertEqual(file.rules.map(\.skipReport), [true, false, false])
        XCTAssertEqual(file.rules[2].required.map(\.id), ["acme-client-id", "acme-region"])
        XCTAssertEqual(file.rules[2].required.map(\.withinLines), [1, nil])
    }
}
