import Foundation
import XCTest
import TestSupport

/// What the CI recipes run: `--format markdown` (the job summary) and `--format gitlab` (GitLab's
/// secret detection report) on the canary fixture, `audit --range` / `--since` for a pull
/// request's commits.
final class CIRecipeTests: XCTestCase {
    let canaryRoot = Repo.path("Fixtures/canary")

    /// Fixtures/canary's expected places and, read out of the files, their values.
    func canaryPlaces() throws -> [(path: String, line: Int, secret: String)] {
        try String(contentsOfFile: canaryRoot + "/expected.tsv", encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { row in
                let f = row.split(separator: "\t").map(String.init)
                let (line, column, length) = (Int(f[1])!, Int(f[2])!, Int(f[3])!)
                let text = try String(contentsOfFile: canaryRoot + "/" + f[0], encoding: .utf8)
                let source = text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
                let start = source.unicodeScalars.index(source.unicodeScalars.startIndex, offsetBy: column - 1)
                return (f[0], line, String(String(source.unicodeScalars[start...]).utf8.prefix(length))!)
            }
    }

    func testMarkdownAndGitLabReportsFindEveryCanaryAndLeakNone() throws {
        let places = try canaryPlaces()
        XCTAssertEqual(places.count, 4)
        let tmp = TempDir()
        for format in ["markdown", "gitlab"] {
            let file = tmp.path + "/report." + format
            let r = keyshape(["scan", canaryRoot, "--no-config", "--no-progress", "--format", format, "--\(format)-output", file])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            let written = tmp.read("report." + format)
            XCTAssertEqual(written, r.stdout, "--\(format)-output writes what --format prints")
            for place in places {
                assertNoFragment(of: place.secret, in: r.stdout + r.stderr, format)
                if format == "markdown" {
                    XCTAssertTrue(r.stdout.contains("`\(place.path):\(place.line):"), "\(format): \(place.path):\(place.line)\n\(r.stdout)")
                }
            }
            if format == "gitlab" {
                let object = try XCTUnwrap(r.report)
                let locations = (object["vulnerabilities"] as! [[String: Any]]).map { v -> String in
                    let l = v["location"] as! [String: Any]
                    return "\(l["file"] as! String):\(l["start_line"] as! Int)"
                }
                XCTAssertEqual(locations.sorted(), places.map { "\($0.path):\($0.line)" }.sorted())
            }
        }
    }

    /// The report GitLab ingests, checked against GitLab's published schema (Fixtures/gitlab),
    /// with findings, an error entry and a history finding.
    func testGitLabReportValidatesAgainstGitLabsSchema() throws {
        let tmp = TempDir()
        let scan = tmp.path + "/scan.json", broken = tmp.path + "/broken.json", history = tmp.path + "/history.json"
        XCTAssertEqual(keyshape(["scan", canaryRoot, "--no-config", "--format", "gitlab", "--output", scan]).status, 1)
        XCTAssertEqual(keyshape(["scan", canaryRoot, canaryRoot + "/missing", "--no-config", "--format", "gitlab", "--output", broken]).status, 2)
        let repo = GitFixture()
        let secret = canary("gitlabHistory1")
        repo.write("deploy/.env", "TOKEN=\(secret)\n")
        let commit = repo.commit("deploy")
        XCTAssertEqual(keyshape(["history", repo.path, "--format", "gitlab", "--output", history]).status, 1)
        assertNoFragment(of: secret, in: tmp.read("history.json"), "gitlab history report")
        XCTAssertTrue(tmp.read("history.json").contains("\"sha\": \"\(commit)\""), tmp.read("history.json"))
        let v = validateGitLab([scan, broken, history])
        XCTAssertEqual(v.status, 0, v.stderr + v.stdout)
        // The validator itself refuses an excerpt, so the check above can fail.
        var object = try XCTUnwrap(JSONReport.object(tmp.read("scan.json")))
        var items = object["vulnerabilities"] as! [[String: Any]]
        items[0]["raw_source_code_extract"] = "x"
        object["vulnerabilities"] = items
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: tmp.path + "/bad.json"))
        let refused = validateGitLab([tmp.path + "/bad.json"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
    }

    /// scripts/validate-gitlab with the Python that has jsonschema (scripts/test exports
    /// KEYSHAPE_PYTHON; else PATH's python3).
    func validateGitLab(_ files: [String]) -> Run {
        let script = Repo.path("scripts/validate-gitlab")
        if let python = ProcessInfo.processInfo.environment["KEYSHAPE_PYTHON"] { return runProcess(python, [script] + files) }
        return runProcess("/usr/bin/env", ["python3", script] + files)
    }

    /// A file name built to break a Markdown table or inject HTML is one escaped cell.
    func testMarkdownSummaryKeepsAHostileFileNameInItsCell() {
        let tmp = TempDir()
        let secret = canary("markdownName1")
        let name = "a|b`<script>x</script>`[l](https:x)"
        tmp.write("tree/\(name).env", "token = \(secret)\n")
        let r = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--format", "markdown"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "markdown")
        XCTAssertTrue(r.stdout.contains("| `` a\\|b`<script>x</script>`[l](https:x).env:1:9 `` |") || r.stdout.contains("| ``a\\|b`<script>x</script>`[l](https:x).env:1:9`` |"), r.stdout)
    }

    // MARK: audit --range / --since

    /// A repository whose first commit adds one key and second another; the tree holds both.
    func twoCommits() -> (repo: GitFixture, first: String, second: String, old: String, new: String) {
        let repo = GitFixture()
        let old = canary("rangeOld1"), new = canary("rangeNew2")
        repo.write("old.env", "TOKEN=\(old)\n")
        let first = repo.commit("old key")
        repo.write("new.env", "TOKEN=\(new)\n")
        let second = repo.commit("new key")
        return (repo, first, second, old, new)
    }

    func testAuditRangeScansOnlyThePullRequestsCommits() {
        let t = twoCommits()
        let report = keyshapeJSON(["audit", t.repo.path, "--range", "\(t.first)..\(t.second)"], secrets: [t.old, t.new])
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(places(report.findings), ["\(t.second) new.env:1"], "the base's key is not the pull request's")
        XCTAssertTrue(report.run.stderr.contains("keyshape audit: sources: the selected commits' changes stand for them"), report.run.stderr)
        XCTAssertTrue(report.run.stderr.contains("history: 1 findings; 1 commits"), report.run.stderr)

        let none = keyshapeJSON(["audit", t.repo.path, "--range", "\(t.second)..\(t.second)"], secrets: [t.old, t.new])
        XCTAssertEqual(none.run.status, 0, "no commits, no working tree of its own: \(none.run.stderr)")
        XCTAssertEqual(none.findings.count, 0)

        let since = keyshapeJSON(["audit", t.repo.path, "--since", t.first], secrets: [t.old, t.new])
        XCTAssertEqual(places(since.findings), ["\(t.second) new.env:1"])
    }

    /// A first push (no remote-tracking ref): an empty or zero base is every unpushed commit.
    func testAuditWithAnEmptyBaseScansWhatIsNotPushedAndProductsStillCount() {
        let t = twoCommits()
        let zero = String(repeating: "0", count: 40)
        let all = keyshapeJSON(["audit", t.repo.path, "--range", "\(zero)..\(t.second)"], secrets: [t.old, t.new])
        XCTAssertEqual(places(all.findings), ["\(t.first) old.env:1", "\(t.second) new.env:1"], all.run.stderr)
        XCTAssertEqual(keyshapeJSON(["audit", t.repo.path, "--since", ""], secrets: [t.old, t.new]).findings.count, 2)

        let products = TempDir()
        let built = canary("rangeProduct3")
        products.write("build/app.bin", "\u{0}bin\u{0}key=\(built)\u{0}")
        let withProducts = keyshapeJSON(["audit", t.repo.path, "--range", "\(t.second)..\(t.second)", "--products", products.path + "/build"],
                                        secrets: [t.old, t.new, built])
        XCTAssertEqual(withProducts.run.status, 1)
        XCTAssertEqual(withProducts.findings.map(\.kind), ["binary"])
    }

    func testAuditRangeRefusesARevisionThatNamesNoCommit() {
        let t = twoCommits()
        let r = keyshape(["audit", t.repo.path, "--range", "nosuchbranch..\(t.second)", "--no-progress"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--range nosuchbranch: not a commit"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        let outside = TempDir()
        outside.write("a.txt", "hello\n")
        let noRepo = keyshape(["audit", outside.path, "--since", "HEAD", "--no-progress"])
        XCTAssertEqual(noRepo.status, 2, noRepo.stderr)
        XCTAssertTrue(noRepo.stderr.contains("--since and --range select commits"), noRepo.stderr)
    }
}
