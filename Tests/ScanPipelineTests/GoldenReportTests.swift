import Foundation
import XCTest
import ScanCore
import MatchEngine
import ScanReport
@testable import ScanPipeline

/// Golden reports in every format (text, JSON, JSONL, SARIF) over one fixture set that
/// holds every provenance kind keyshape produces today: a text file and a Mach-O section
/// (`scan`), a staged file, a blob in a commit, a commit message and an unreachable blob
/// (`history --all-objects`). Everything is fixed (contents, names, dates, the hash key), so the
/// reports are byte for byte the same on every machine. After a deliberate change, run
/// with KEYSHAPE_UPDATE_GOLDEN=1 to rewrite Fixtures/golden/pipeline.*.
final class GoldenReportTests: XCTestCase {
    static let golden = FileScanFuzzSeedTests.root.appendingPathComponent("Fixtures/golden")

    func git(_ repo: String, _ args: [String], input: String? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: HistoryChunkingTests.gitPath)
        p.arguments = ["-C", repo, "-c", "user.name=Golden Author", "-c", "user.email=golden@example.com"] + args
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_AUTHOR_DATE"] = "2026-01-02T03:04:05+00:00"
        env["GIT_COMMITTER_DATE"] = "2026-01-02T03:04:05+00:00"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        let inPipe = Pipe()
        p.standardInput = inPipe
        try p.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "git \(args)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testEveryFormatOverEveryProvenanceKindMatchesItsGoldenFile() throws {
        let tree = TempTree()
        let repo = tree.path + "/repo"
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        _ = try git(repo, ["init", "-q", "-b", "main"])
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
