import Foundation
import XCTest
import TestSupport

/// `.gitleaksignore` at the scanned root and a gitleaks JSON report given to `--baseline`.
final class GitleaksBaselineCLITests: XCTestCase {
    let secret = canary("glbase1")

    func suppressed(_ r: Run) -> [String: Int] {
        let object = r.report
        return (object?["stats"] as? [String: Any])?["suppressed"] as? [String: Int] ?? [:]
    }

    /// Before this change `.gitleaksignore` was not read: the finding was reported.
    func testGitleaksIgnoreInTheRootSuppressesAsBaseline() {
        let dir = TempDir()
        dir.write("tree/src/a.txt", "\ntoken = \(secret)\n")
        dir.write("tree/.gitleaksignore", "# accepted\nsrc/a.txt:keyshape-canary:2\n")
        let run = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(suppressed(run)["baseline"], 1)
        XCTAssertTrue(run.stderr.contains("; config: \(dir.path)/tree/.gitleaksignore"), run.stderr)
        assertNoFragment(of: secret, in: run.stdout + run.stderr, "output")

        // Text streams findings as files finish; the entry holds there too.
        let text = keyshape(["scan", dir.path + "/tree"])
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        XCTAssertEqual(text.stdout, "")
        XCTAssertTrue(text.stderr.contains("baseline 1"), text.stderr)

        // Another line is another finding.
        dir.write("tree/.gitleaksignore", "src/a.txt:keyshape-canary:1\n")
        XCTAssertEqual(keyshape(["scan", dir.path + "/tree"]).status, 1)

        // --no-config: the tree does not vouch for itself.
        dir.write("tree/.gitleaksignore", "src/a.txt:keyshape-canary:2\n")
        let untrusted = keyshape(["scan", dir.path + "/tree", "--no-config"])
        XCTAssertEqual(untrusted.status, 1)
        XCTAssertTrue(untrusted.stderr.contains("config not read (--no-config): \(dir.path)/tree/.gitleaksignore"), untrusted.stderr)
    }

    /// Before this change a JSON array was "not a keyshape baseline" (exit 2).
    func testGitleaksJSONReportAsBaseline() {
        let dir = TempDir()
        dir.write("tree/src/a.txt", "token = \(secret)\n")
        dir.write("gl.json", #"[{"RuleID":"keyshape-canary","File":"tree/src/a.txt","StartLine":1,"Commit":"","Secret":"REDACTED"}]"#)
        // Run as gitleaks was (`gitleaks dir tree` reports tree/ in front of each path).
        let run = keyshape(["scan", "tree", "--baseline", "gl.json", "--format", "json"], cwd: dir.path)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(suppressed(run)["baseline"], 1)
    }

    /// History: `commit:path:rule:line` holds for that commit only.
    func testGitleaksIgnoreWithCommitsInHistory() {
        let repo = GitFixture()
        repo.write("a.txt", "token = \(secret)\n")
        let first = repo.commit("first")
        repo.write("b.txt", "token = \(secret)\n")
        _ = repo.commit("second")
        repo.write(".gitleaksignore", "\(first):a.txt:keyshape-canary:1\n")
        let report = keyshapeJSON(["history", repo.path], secrets: [secret])
        XCTAssertEqual(report.findings.map { $0.path ?? "" }, ["b.txt"], report.run.stderr)
        XCTAssertEqual(report.run.status, 1)
        XCTAssertTrue(report.run.stderr.contains("baseline 1"), report.run.stderr)
    }
}
