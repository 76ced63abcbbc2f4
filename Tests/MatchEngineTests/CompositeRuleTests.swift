import XCTest
@testable import MatchEngine

/// gitleaks' composite rules: `[[rules.required]]` with withinLines / withinColumns, and
/// `skipReport` components.
final class CompositeRuleTests: XCTestCase {
    /// An id-shaped token a secret needs to be usable, and the secret itself: both made up.
    static let config = #"""
    [[rules]]
    id = "acme-client-id"
    regex = '''acmeid_([0-9a-f]{8})'''
    keywords = ["acmeid_"]
    skipReport = true

    [[rules]]
    id = "acme-region"
    regex = '''region=(eu|us)\b'''
    keywords = ["region="]

    [[rules]]
    id = "acme-secret"
    regex = '''acmesec_([A-Za-z0-9]{12})'''
    keywords = ["acmesec_"]
    [[rules.required]]
    id = "acme-client-id"
    withinLines = 1
    [[rules.required]]
    id = "acme-region"
    """#

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
        let set = try rules(#"""
        [[rules]]
        id = "part"
        regex = '''part_([a-z]{6})'''
        keywords = ["part_"]
        skipReport = true

        [[rules]]
        id = "whole"
        regex = '''whole_([a-z]{6})'''
        keywords = ["whole_"]
        [[rules.required]]
        id = "part"
        withinLines = 2
        withinColumns = 4
        """#)
        // Secrets start at column 6 ("whole_") and 5 ("part_"): 1 apart.
        XCTAssertEqual(scan(set, "whole_abcdef\npart_ghijkl\n").map(\.rule), ["whole"])
        // Here the part's secret starts 20 columns further right.
        XCTAssertEqual(scan(set, "whole_abcdef\n" + String(repeating: " ", count: 20) + "part_ghijkl\n").map(\.rule), [])
    }

    /// A component an allowlist allows is no match in gitleaks, so it satisfies nothing.
    func testAnAllowlistedComponentDoesNotCount() throws {
        let set = try rules(#"""
        [[rules]]
        id = "part"
        regex = '''part_([a-z]{6})'''
        keywords = ["part_"]
        skipReport = true
        [[rules.allowlists]]
        stopwords = ["sample"]

        [[rules]]
        id = "whole"
        regex = '''whole_([a-z]{6})'''
        keywords = ["whole_"]
        [[rules.required]]
        id = "part"
        """#)
        XCTAssertEqual(scan(set, "whole_abcdef part_sample").map(\.rule), [])
        XCTAssertEqual(scan(set, "whole_abcdef part_ghijkl").map(\.rule), ["whole"])
    }

    func testARequiredIdNoRuleHasMeansTheRuleNeverReports() throws {
        let file = try RuleLoader.load(text: #"""
        [[rules]]
        id = "whole"
        regex = '''whole_([a-z]{6})'''
        keywords = ["whole_"]
        [[rules.required]]
        id = "missing-part"
        """#, file: "t.toml")
        XCTAssertEqual(scan(RuleSet(rules: file.rules), "whole_abcdef").map(\.rule), [])
        let warnings = RuleFile.unknownIdWarnings([file]).map(\.description)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("requires rule `missing-part`"), warnings[0])
    }

    func testBadRequiredEntriesAreErrors() {
        XCTAssertThrowsError(try rules("[[rules]]\nid = 'a'\nregex = 'x'\n[[rules.required]]\nwithinLines = 1\n"))
        XCTAssertThrowsError(try rules("[[rules]]\nid = 'a'\nregex = 'x'\n[[rules.required]]\nid = 'b'\nwithinLines = -1\n"))
    }
}
