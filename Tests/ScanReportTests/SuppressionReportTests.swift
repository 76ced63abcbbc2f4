import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// What was suppressed shows in every report: counts in JSON stats and the text summary,
/// and with --include-suppressed the findings themselves, marked.
final class SuppressionReportTests: XCTestCase {
    func result(keep: Bool) -> ScanResult {
        func finding(_ path: String, _ fp: String) -> Finding {
            var l = Location(kind: .file, path: path, byteOffset: 4, byteLength: 20)
            l.line = 1; l.column = 5; l.endLine = 1; l.endColumn = 25
            return Finding(rule: "t", description: "test", fingerprint: fp, secretHash: "00000000000000aa", location: l)
        }
        var stats = ScanStats()
        stats.files = 3
        stats.suppressed = SuppressionCounts(allowlist: 2, inline: 1, baseline: 1)
        stats.allowlistedFiles = 5
        var r = ScanResult(findings: [finding("a.txt", "1111111111111111")], stats: stats,
                           rules: [RuleInfo(id: "t", description: "test", tags: []), RuleInfo(id: "u", description: "only suppressed", tags: [])])
        if keep {
            var inline = finding("b.txt", "2222222222222222"); inline.rule = "u"
            r.suppressed = [SuppressedFinding(inline, .inline), SuppressedFinding(finding("c.txt", "3333333333333333"), .baseline),
                            SuppressedFinding(finding("d.txt", "4444444444444444"), .allowlist)]
        }
        return r
    }

    func testJSONStatsCountEachMechanism() throws {
        let object = try XCTUnwrap(JSONReport.object(JSONReporter.report(result(keep: false))))
        let stats = object["stats"] as! [String: Any]
        XCTAssertEqual(stats["suppressed"] as? [String: Int], ["allowlist": 2, "inline": 1, "baseline": 1])
        XCTAssertEqual(stats["allowlistedFiles"] as? Int, 5)
        XCTAssertNil(object["suppressed"], "no suppressed findings listed unless kept")
        let kept = try XCTUnwrap(JSONReport.object(JSONReporter.report(result(keep: true))))
        XCTAssertEqual((kept["suppressed"] as? [[String: Any]])?.compactMap { $0["suppression"] as? String }, ["inline", "baseline", "allowlist"])
        XCTAssertEqual((kept["findings"] as? [Any])?.count, 1)
    }

    func testTextSummaryNamesTheSuppressedAndUnreadCounts() {
        let line = TextReporter.summary(result(keep: false))
        XCTAssertTrue(line.hasPrefix("keyshape: 1 finding; scanned 3 files"), line)
        XCTAssertTrue(line.contains("suppressed 4 (allowlist 2, inline 1, baseline 1)"), line)
        XCTAssertTrue(line.contains("5 not read (allowlisted by path)"), line)
        XCTAssertFalse(TextReporter.summary(ScanResult()).contains("suppressed"), "nothing to say when nothing was suppressed")
    }

    func testSARIFSuppressionsOnlyWithIncludeSuppressed() throws {
        func results(_ r: ScanResult, include: Bool) throws -> (results: [[String: Any]], rules: [String]) {
            let object = try XCTUnwrap(JSONReport.object(SARIFReporter.report(r, includeSuppressed: include)))
            let run = (object["runs"] as! [[String: Any]])[0]
            let rules = ((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]]
            return (run["results"] as! [[String: Any]], rules.map { $0["id"] as! String })
        }
        let plain = try results(result(keep: true), include: false)
        XCTAssertEqual(plain.results.count, 1)
        XCTAssertNil(plain.results[0]["suppressions"])
        let all = try results(result(keep: true), include: true)
        XCTAssertEqual(all.rules, ["t", "u"], "a rule that only has suppressed results is described too")
        let kinds = all.results.map { r in ((r["suppressions"] as? [[String: Any]]) ?? []).map { $0["kind"] as! String } }
        XCTAssertEqual(kinds, [[], ["inSource"], ["external"], ["external"]])
        for r in all.results.dropFirst() {
            XCTAssertEqual((r["suppressions"] as! [[String: Any]])[0]["status"] as? String, "accepted")
        }
    }
}
