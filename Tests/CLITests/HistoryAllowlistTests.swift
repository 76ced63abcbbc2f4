import Foundation
import XCTest

/// Path-only allowlists in the config skip a blob at that path without reading it, yet the
/// same blob at another path is still scanned and reported there.
final class HistoryAllowlistTests: XCTestCase {
    func testAllowlistedPathsAreSkippedButTheSameBlobElsewhereIsReported() {
        let repo = GitFixture()
        let secret = canary("allow1")
        repo.write(".keyshape.toml", "[[allowlists]]\npaths = ['''^fixtures/''']\n")
        repo.write("fixtures/sample.txt", "token = \(secret)\n")
        let first = repo.commit("fixture")
        let clean = keyshapeJSON(["history", repo.path], secrets: [secret])
        XCTAssertEqual(clean.run.status, 0, clean.run.stderr)
        XCTAssertEqual(places(clean.findings), [])
        // The same content, now at a path no allowlist covers.
        repo.write("src/copy.txt", "token = \(secret)\n")
        let second = repo.commit("copy")
        let report = keyshapeJSON(["history", repo.path], secrets: [secret])
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(places(report.findings), ["\(second) src/copy.txt:1"])
        XCTAssertNotEqual(first, second)
    }
}
