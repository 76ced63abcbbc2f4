import Foundation
import XCTest
import TestSupport

/// `history` and `audit` of a repository holding a "git bomb" (one subtree named ten times
/// at every level) end quickly with exit 2 and an error entry, instead of listing
/// 10^depth paths (a depth-7 bomb took 58 s and 3.4 GB).
final class GitBombScanTests: XCTestCase {
    func errors(_ r: Run) -> [String] {
        guard let object = r.report,
              let errors = object["errors"] as? [[String: Any]] else { return [] }
        return errors.compactMap { $0["message"] as? String }
    }

    func testACommitPastMaxCommitPathsIsAnError() throws {
        let repo = GitFixture()
        let bomb = try GitBomb.commit(in: repo.path, depth: 4)
        for command in ["history", "audit"] {
            let r = keyshape([command, repo.path, "--no-progress", "--format", "json", "--max-commit-paths", "1000"])
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertTrue(errors(r).contains { $0.contains("commit \(bomb) changes more than 1000 paths") }, "\(command): \(r.stdout)")
        }
        // Under a raised limit the same commit is scanned.
        let r = keyshape(["history", repo.path, "--no-progress", "--format", "json", "--max-commit-paths", "20000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(keyshape(["history", repo.path, "--max-commit-paths", "0"]).status, 2)
    }

    /// A million paths under the default limit: git's own memory is capped, so it stops
    /// within seconds (before: 21 s, 347 MB, exit 0 after listing them all).
    func testAMillionPathBombEndsWithAnErrorEntry() throws {
        let repo = GitFixture()
        try GitBomb.commit(in: repo.path, depth: 6)
        let started = Date()
        let r = keyshape(["history", repo.path, "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(errors(r).contains { $0.contains("git bomb") }, r.stdout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
    }
}
