import Foundation
import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// The scanner's path stage and place-naming baselines work the same under `scan`, `staged`
/// and `history`: a path-only rule (gitleaks' `path` without `regex`) reports the file
/// wherever the pipeline builds findings, and gitleaks baseline entries (`.gitleaksignore`
/// lines, a gitleaks report) are applied by the `FindingBuilder`, so every consumer of the
/// result sees the suppression, not only the CLI.
final class PathStageTests: XCTestCase {
    static let keystoreRule = """
    [[rules]]
    id = "keystore"
    description = "test key store"
    path = '''\\.p12$'''
    """

    func git(_ repo: String, _ args: [String]) throws {
        try TestGit.run(repo, ["-c", "user.name=Path Stage", "-c", "user.email=path@example.com"] + args)
    }

    func options() -> ScanOptions {
        var o = ScanOptions(jobs: 2)
        o.hashKey = "test"
        return o
    }

    /// A repository whose index holds a new `certs/client.p12` (not committed) and whose
    /// history added `old/server.p12` in its first commit and modified it in the second.
    func repository() throws -> (TempDir, String) {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        tree.write("repo/old/server.p12", "0\u{82}not really DER\n")
        try git(repo, ["add", "-A"])
        try git(repo, ["commit", "-q", "-m", "add key store"])
        tree.write("repo/old/server.p12", "0\u{82}changed\n")
        try git(repo, ["commit", "-q", "-am", "change it"])
        tree.write("repo/certs/client.p12", "0\u{82}staged\n")
        try git(repo, ["add", "certs/client.p12"])
        return (tree, repo)
    }

    func testAStagedKeyStoreIsReportedByTheHook() throws {
        let (tree, repo) = try repository()
        defer { withExtendedLifetime(tree) {} }  // the folder lives as long as the test
        let rules = TestRules.set(extra: PathStageTests.keystoreRule)
        let staged = try StagedScanner(ruleSet: rules, options: options()).scan(repository: repo).result
        XCTAssertEqual(staged.issues, [])
        XCTAssertEqual(staged.findings.map(\.rule), ["keystore"])
        let l = try XCTUnwrap(staged.findings.first).location
        XCTAssertEqual(l.kind, .staged)
        XCTAssertEqual(l.path, "certs/client.p12")
        XCTAssertNil(l.line, "the whole file: no line")
        XCTAssertEqual(l.text, "certs/client.p12")
        // The same file at the same path has the fingerprint `scan` gives it.
        let scanned = Scanner(ruleSet: rules, options: options()).scan(paths: [repo]).result
        let inTree = scanned.findings.first { $0.location.path == "certs/client.p12" }
        XCTAssertEqual(inTree?.fingerprint, staged.findings.first?.fingerprint)
    }

    func testHistoryReportsAKeyStoreAtTheCommitThatAddsItsPath() throws {
        let (tree, repo) = try repository()
        defer { withExtendedLifetime(tree) {} }
        let rules = TestRules.set(extra: PathStageTests.keystoreRule)
        let history = try HistoryScanner(ruleSet: rules, options: options(), history: HistoryOptions()).scan(repository: repo).result
        XCTAssertEqual(history.issues, [])
        XCTAssertEqual(history.findings.map(\.rule), ["keystore"], "once: the second commit only modifies the path")
        let l = try XCTUnwrap(history.findings.first).location
        XCTAssertEqual(l.kind, .commit)
        XCTAssertEqual(l.path, "old/server.p12")
        XCTAssertNil(l.line)
        XCTAssertEqual(history.stats.commits, 2)
    }

    func testGitleaksBaselineEntriesSuppressInTheScannerForEveryCommand() throws {
        let (tree, repo) = try repository()
        defer { withExtendedLifetime(tree) {} }
        tree.write("repo/src/app.py", "import os\nTOKEN = \"\(TestRules.canary)\"\n")
        try git(repo, ["add", "src/app.py"])
        let rules = TestRules.set(extra: PathStageTests.keystoreRule)
        var o = options()
        o.baselineEntries = [BaselineEntry(path: "src/app.py", rule: "canary", line: 2),
                             BaselineEntry(path: "certs/client.p12", rule: "keystore", line: 0)]
        o.keepSuppressed = true
        let staged = try StagedScanner(ruleSet: rules, options: o).scan(repository: repo).result
        XCTAssertEqual(staged.findings.map(\.rule), [])
        XCTAssertEqual(staged.stats.suppressed.baseline, 2)
        XCTAssertEqual(staged.suppressed.map(\.suppression), [.baseline, .baseline])
        let scanned = Scanner(ruleSet: rules, options: o).scan(paths: [repo]).result
        XCTAssertEqual(scanned.findings.map { $0.location.path }, ["old/server.p12"], "the entries name other places")
        XCTAssertEqual(scanned.stats.suppressed.baseline, 2)
        // A commit-pinned entry (a `gitleaks git` report) covers that commit's finding only.
        try git(repo, ["commit", "-q", "-m", "app"])
        var pinned = options()
        pinned.baselineEntries = [BaselineEntry(commit: "0000000000000000000000000000000000000000", path: "src/app.py", rule: "canary", line: 2)]
        let history = try HistoryScanner(ruleSet: rules, options: pinned, history: HistoryOptions()).scan(repository: repo).result
        XCTAssertEqual(Set(history.findings.map(\.rule)), ["canary", "keystore"])
        pinned.baselineEntries = [BaselineEntry(path: "src/app.py", rule: "canary", line: 2)]
        let covered = try HistoryScanner(ruleSet: rules, options: pinned, history: HistoryOptions()).scan(repository: repo).result
        XCTAssertEqual(Set(covered.findings.map(\.rule)), ["keystore"])
        XCTAssertEqual(covered.stats.suppressed.baseline, 1)
    }
}
