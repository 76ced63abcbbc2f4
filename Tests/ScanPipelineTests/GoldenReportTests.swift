import Foundation
import XCTest
import ScanCore
import MatchEngine
import ScanReport
@testable import ScanPipeline
import TestSupport

/// Golden reports in every format (text, JSON, JSONL, SARIF) over one fixture set that
/// holds every provenance kind keyshape produces today: a text file and a Mach-O section
/// (`scan`), a staged file, a blob in a commit, a commit message and an unreachable blob
/// (`history --all-objects`). Everything is fixed (contents, names, dates, the hash key), so the
/// reports are byte for byte the same on every machine. After a deliberate change, run
/// with KEYSHAPE_UPDATE_GOLDEN=1 to rewrite Fixtures/golden/pipeline.*.
final class GoldenReportTests: XCTestCase {
    static let golden = FileScanFuzzSeedTests.root.appendingPathComponent("Fixtures/golden")

    /// Git with a fixed identity and fixed dates, so the reports are the same on every run.
    func git(_ repo: String, _ args: [String], input: String? = nil) throws -> String {
        try TestGit.run(repo, ["-c", "user.name=Golden Author", "-c", "user.email=golden@example.com"] + args,
                        input: Data((input ?? "").utf8),
                        environment: ["GIT_AUTHOR_DATE": "2026-01-02T03:04:05+00:00", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05+00:00"])
    }

    func testEveryFormatOverEveryProvenanceKindMatchesItsGoldenFile() throws {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        tree.write("repo/src/app.py", "import os\nTOKEN = \"\(TestRules.canary)\"\n")
        tree.write("repo/App.o", try Data(contentsOf: PipelineParityTests.fixture))
        _ = try git(repo, ["add", "-A"])
        _ = try git(repo, ["commit", "-q", "-m", "app"])
        // A blob no commit reaches.
        _ = try git(repo, ["hash-object", "-w", "--stdin"], input: "left = \"\(TestRules.token)\"\n")
        // A key in a commit message (history's commit-text provenance).
        _ = try git(repo, ["commit", "-q", "--allow-empty", "-m", "rotate\n\nold = \"\(TestRules.token)\""])
        // A staged change.
        tree.write("repo/src/settings.py", "KEY = \"\(TestRules.canary)9\"\n")
        _ = try git(repo, ["add", "src/settings.py"])

        var options = ScanOptions(jobs: 2)
        options.hashKey = "golden"
        let rules = TestRules.set()
        var history = HistoryOptions()
        history.allObjects = true
        let scanned = Scanner(ruleSet: rules, options: options).scan(paths: [repo]).result
        let staged = try StagedScanner(ruleSet: rules, options: options).scan(repository: repo).result
        let log = try HistoryScanner(ruleSet: rules, options: options, history: history).scan(repository: repo).result
        var result = ScanResult(rules: rules.ruleInfos)
        for part in [scanned, staged, log] {
            XCTAssertEqual(part.issues, [])
            result.findings += part.findings
            result.stats.add(part.stats)
        }
        result.findings.sort()
        result.stats.seconds = 0
        let kinds = Set(result.findings.map(\.location.kind))
        XCTAssertEqual(kinds, Set(Location.Kind.allCases), "every kind: \(kinds)")

        let reports: [(String, String)] = [
            ("pipeline.txt", TextReporter.report(result)),
            ("pipeline.json", JSONReporter.report(result)),
            ("pipeline.jsonl", JSONReporter.reportLines(result)),
            ("pipeline.sarif", SARIFReporter.report(result)),
        ]
        for (name, text) in reports {
            XCTAssertFalse(text.contains(TestRules.canary) || text.contains(TestRules.token), "\(name) holds no value")
            // The version is not part of what these files pin down.
            let actual = text.replacingOccurrences(of: "\"\(KeyshapeVersion.current)\"", with: "\"VERSION\"")
            let url = GoldenReportTests.golden.appendingPathComponent(name)
            if ProcessInfo.processInfo.environment["KEYSHAPE_UPDATE_GOLDEN"] == "1" {
                try actual.write(to: url, atomically: true, encoding: .utf8)
            }
            let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            XCTAssertEqual(actual, expected, "\(name) differs from its golden file (KEYSHAPE_UPDATE_GOLDEN=1 rewrites it)")
        }
    }
}
