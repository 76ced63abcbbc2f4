import Foundation
import ScanCore
import XCTest
@testable import ScanReport

final class GitleaksBaselineTests: XCTestCase {
    func finding(_ rule: String, _ path: String, line: Int?, commit: String? = nil) -> Finding {
        var l = Location(kind: commit == nil ? .file : .commit, path: path, byteOffset: 0, byteLength: 1)
        l.line = line
        l.commit = commit
        return Finding(rule: rule, description: rule, fingerprint: "f", secretHash: "h", location: l)
    }

    let commit = String(repeating: "ab12", count: 10)

    func testIgnoreFileLinesOfBothShapes() {
        let text = """
        # accepted test keys
        \(commit):src/config.py:generic-api-key:12

        docs/a:b.md:slack-webhook-url:3
        just some words
        """
        let (entries, warnings) = GitleaksBaseline.parseIgnoreFile(text, path: ".gitleaksignore")
        XCTAssertEqual(entries, [
            BaselineEntry(commit: commit, path: "src/config.py", rule: "generic-api-key", line: 12),
            BaselineEntry(path: "docs/a:b.md", rule: "slack-webhook-url", line: 3),
        ])
        XCTAssertEqual(warnings, [".gitleaksignore:5: warning: not a gitleaks fingerprint (commit:path:rule:line or path:rule:line); line ignored"],
                       "the line is named by number, its text is not echoed")
    }

    func testCoversByRulePathLineAndCommit() {
        let plain = BaselineEntry(path: "./src/a.py", rule: "r", line: 4)
        XCTAssertTrue(plain.covers(finding("r", "src/a.py", line: 4)))
        XCTAssertFalse(plain.covers(finding("r", "src/a.py", line: 5)))
        XCTAssertFalse(plain.covers(finding("other", "src/a.py", line: 4)))
        XCTAssertFalse(plain.covers(finding("r", "a.py", line: 4)), "paths are compared whole")
        XCTAssertTrue(BaselineEntry(path: "repo/src/a.py", rule: "r", line: 4).relative(to: "./repo/").covers(finding("r", "src/a.py", line: 4)),
                      "gitleaks `dir repo` paths start with the scanned folder")
        XCTAssertEqual(BaselineEntry(path: "src/a.py", rule: "r", line: 4).relative(to: "other").path, "src/a.py")
        let pinned = BaselineEntry(commit: commit, path: "src/a.py", rule: "r", line: 4)
        XCTAssertTrue(pinned.covers(finding("r", "src/a.py", line: 4, commit: commit)))
        XCTAssertFalse(pinned.covers(finding("r", "src/a.py", line: 4, commit: String(repeating: "cd34", count: 10))))
        XCTAssertFalse(pinned.covers(finding("r", "src/a.py", line: 4)), "a commit entry covers only history findings")
    }

    func testGitleaksJSONReportIsABaseline() throws {
        let report = """
        [{"Description":"d","StartLine":7,"EndLine":7,"StartColumn":3,"EndColumn":9,"Match":"REDACTED","Secret":"REDACTED",
          "File":"src/a.py","Commit":"","RuleID":"r","Fingerprint":"src/a.py:r:7"}]
        """
        let contents = try BaselineFile.load(Data(report.utf8), path: "gl.json")
        XCTAssertEqual(contents.entries, [BaselineEntry(path: "src/a.py", rule: "r", line: 7)])
        XCTAssertEqual(contents.fingerprints, [])
        XCTAssertThrowsError(try BaselineFile.load(Data("[1, 2]".utf8), path: "gl.json"))
        let keyshape = try BaselineFile.load(Data(#"{"findings":[{"fingerprint":"0123456789abcdef"}]}"#.utf8), path: "b.json")
        XCTAssertEqual(keyshape.fingerprints, ["0123456789abcdef"])
    }
}
