import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// `--format markdown` (a CI job summary) and `--format gitlab` (GitLab's secret detection
/// report): what they hold, that names from the scanned tree stay data, golden files
/// (KEYSHAPE_UPDATE_GOLDEN=1 rewrites them after a deliberate change).
final class CIReportFormatTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/golden")

    /// ReporterTests' two findings, one a critical one, and a history finding.
    func sample() -> ScanResult {
        var r = ReporterTests.sample()
        r.findings[1].severity = .critical
        var history = Location(kind: .commit, path: "old/.env", byteOffset: 6, byteLength: 40)
        history.line = 1; history.column = 7; history.endLine = 1; history.endColumn = 47
        history.commit = "0123456789abcdef0123456789abcdef01234567"; history.blob = "feedfacefeedfacefeedfacefeedfacefeedface"
        r.findings.append(Finding(rule: "github-pat", description: "GitHub personal access token", fingerprint: "1111222233334444",
                                  secretHash: "5555666677778888", location: history, severity: .high))
        r.rules.append(RuleInfo(id: "github-pat", description: "GitHub personal access token", tags: [], remediation: "Revoke it at <https://example.invalid/settings> *now*."))
        return r
    }

    /// The version is written as VERSION, so a release does not touch the golden files.
    func assertGolden(_ report: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let actual = report.replacingOccurrences(of: KeyshapeVersion.current, with: "VERSION")
        let url = CIReportFormatTests.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["KEYSHAPE_UPDATE_GOLDEN"] == "1" { try actual.write(to: url, atomically: true, encoding: .utf8) }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        XCTAssertEqual(actual, expected, "\(name) differs from its golden file (KEYSHAPE_UPDATE_GOLDEN=1 rewrites it)", file: file, line: line)
    }

    // MARK: Markdown

    func testMarkdownCountsBySeverityAndRuleAndListsEveryPlace() throws {
        let md = MarkdownReporter.report(sample())
        XCTAssertTrue(md.hasPrefix("### keyshape: 3 findings, 1 error\n"), md)
        // Most severe first; one row per (severity, rule).
        XCTAssertTrue(md.contains("| critical | `anthropic-api-key` | `Anthropic API key` | 1 |\n| high | `anthropic-api-key` | `Anthropic API key` | 1 |\n| high | `github-pat` |"), md)
        XCTAssertTrue(md.contains("| high | `anthropic-api-key` | `Sources/App/API Keys.swift:3:33` |  | `3f0c9a1b7d2e4c55` |"), md)
        XCTAssertTrue(md.contains("| `old/.env:1:7` | `0123456789ab` | `1111222233334444` |"), "the commit has its own column: \(md)")
        XCTAssertTrue(md.contains("`secret.bin`: `permission denied`"), md)
        try assertGolden(md, "sample.md")
        XCTAssertEqual(ReportFormat.named("markdown")?.render(sample(), ReportOptions()), md)
        XCTAssertEqual(MarkdownReporter.report(ScanResult()).components(separatedBy: "\n").first, "### keyshape: no secrets found")
    }

    /// A file name with `|`, backticks, a tag, an entity and a newline is one cell of one row,
    /// shown as it is: nothing in it can end the cell, the row or the code span, or be markup.
    func testHostileNamesStayInTheirCell() {
        var r = sample()
        let hostile = "a|b``c`<script>alert(1)</script>&amp;[x](https://evil.invalid)\n| forged | row |\\|.env"
        r.findings[0].location.path = hostile
        r.findings[2].rule = "rule|`x`"
        let md = MarkdownReporter.report(r)
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| severity") }
        XCTAssertEqual(rows.count, 3 + 3, "three count rows and three finding rows: \(md)")
        for row in rows {
            // Cells end at a `|` preceded by an even number of backslashes (GFM's table rule).
            var separators = 0, backslashes = 0
            for ch in row {
                if ch == "|" && backslashes % 2 == 0 { separators += 1 }
                backslashes = ch == "\\" ? backslashes + 1 : 0
            }
            XCTAssertTrue(separators == 5 || separators == 6, "\(separators) cells in \(row)")
        }
        let place = rows.first { $0.contains("script") }.map(String.init) ?? ""
        // The fence is longer than the name's longest backtick run (two): three backticks.
        XCTAssertTrue(place.contains("| ```a\\|b``c`<script>alert(1)</script>&amp;[x](https://evil.invalid)\\n\\| forged \\| row \\|\\\\\\|.env:3:33``` |"), place)
        XCTAssertFalse(md.contains("\n| forged"), "the newline is escaped, not a new row")
        XCTAssertTrue(md.contains("| `` rule\\|`x` `` |"), md)
    }

    func testMarkdownKeepsToItsRowLimit() {
        var r = ScanResult()
        let f = ReporterTests.sample().findings[0]
        r.findings = Array(repeating: f, count: MarkdownReporter.maxRows + 3)
        let md = MarkdownReporter.report(r)
        XCTAssertTrue(md.contains("… and 3 more findings"), md)
        XCTAssertTrue(md.contains("| \(MarkdownReporter.maxRows + 3) |"), "the counts are complete")
    }

    // MARK: GitLab

    func gitlab(_ r: ScanResult) throws -> [String: Any] {
        try XCTUnwrap(JSONReport.object(GitLabReporter.report(r, times: ("2026-12-06T08:00:00", "2026-12-06T08:00:01"))))
    }

    func testGitLabReportHasLocationsSeverityAndRuleIdentifierAndNoExtract() throws {
        let object = try gitlab(sample())
        XCTAssertEqual(object["version"] as? String, "15.2.1")
        let scan = object["scan"] as! [String: Any]
        XCTAssertEqual(scan["type"] as? String, "secret_detection")
        XCTAssertEqual((scan["analyzer"] as! [String: Any])["name"] as? String, "keyshape")
        XCTAssertEqual((scan["scanner"] as! [String: Any])["version"] as? String, KeyshapeVersion.current)
        XCTAssertEqual(scan["start_time"] as? String, "2026-12-06T08:00:00")
        XCTAssertEqual((scan["messages"] as! [[String: String]]).first?["level"], "warn", "an error entry is a partial error")
        let v = object["vulnerabilities"] as! [[String: Any]]
        XCTAssertEqual(v.count, 3)
        for item in v { XCTAssertNil(item["raw_source_code_extract"], "never an excerpt: it would be the value") }
        let file = v[0]["location"] as! [String: Any]
        XCTAssertEqual(file["file"] as? String, "Sources/App/API Keys.swift")
        XCTAssertEqual(file["start_line"] as? Int, 3)
        XCTAssertEqual((file["commit"] as! [String: String])["sha"], "0000000")
        XCTAssertEqual(v[0]["severity"] as? String, "High")
        XCTAssertEqual(v[1]["severity"] as? String, "Critical")
        XCTAssertNil((v[1]["location"] as! [String: Any])["start_line"], "a binary has no line")
        let ids = v[0]["identifiers"] as! [[String: String]]
        XCTAssertEqual(ids, [["type": "keyshape_rule_id", "name": "keyshape rule anthropic-api-key", "value": "anthropic-api-key"]])
        let history = v[2]["location"] as! [String: Any]
        XCTAssertEqual((history["commit"] as! [String: String])["sha"], "0123456789abcdef0123456789abcdef01234567")
        XCTAssertEqual(v[2]["id"] as? String, "keyshape-1111222233334444-0123456789ab")
        // GitLab renders solution as Markdown: a rules file's remediation forms no link or emphasis.
        XCTAssertEqual(v[2]["solution"] as? String, #"Revoke it at \<https://example.invalid/settings\> \*now\*."#)
        try assertGolden(GitLabReporter.report(sample(), times: nil), "sample.gitlab.json")
    }

    /// `audit` reports a key both in the tree and in the commit that added it: one
    /// vulnerability, the tree's, naming the commit (as SARIF does).
    func testGitLabMergesAHistoryFindingIntoTheSameKeyInTheTree() throws {
        var r = sample()
        r.findings[2].location.path = "Sources/App/API Keys.swift"
        r.findings[2].rule = "anthropic-api-key"
        r.findings[2].secretHash = r.findings[0].secretHash
        let v = try gitlab(r)["vulnerabilities"] as! [[String: Any]]
        XCTAssertEqual(v.count, 2)
        XCTAssertEqual(((v[0]["location"] as! [String: Any])["commit"] as! [String: String])["sha"], "0123456789abcdef0123456789abcdef01234567")
        XCTAssertTrue((v[0]["description"] as! String).contains("added in commit `0123456789abcdef0123456789abcdef01234567`"))
    }
}
