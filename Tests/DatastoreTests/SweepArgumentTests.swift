import Datastore
import Foundation
import TestSupport
import XCTest

/// A repository given to `sweep` is never an option of the child runs: a `--repos` line
/// starting with `-` is refused (its number named, the line never echoed), and a repository
/// whose name starts with a dash, given after `--`, reaches each child after `--` too.
final class SweepArgumentTests: XCTestCase {
    func testARepositoryLineStartingWithADashIsRefusedByNumber() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let repo = HistoryFixture(in: scratch, name: "one", commits: 2, perCommit: 1)
        let planted = scratch.path + "/planted.txt"
        scratch.write("repos.txt", "# repositories\n\(repo.path)\n--output=\(planted)\n")
        let r = CLI.keyshape(["sweep", "--repos", scratch.path + "/repos.txt", "--datastore", scratch.path + "/d.db",
                              "--rules", scratch.path + "/rules.toml", "--no-builtin-rules"], cwd: scratch.path)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("repos.txt: line 3 starts with `-`"), r.stderr)
        XCTAssertFalse(r.stderr.contains("--output"), "the line is never echoed: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted), "no child took the line as a flag")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/d.db"), "nothing was swept")
        for line in ["-", "  -x"] {
            scratch.write("repos.txt", "\(line)\n")
            let dash = CLI.keyshape(["sweep", "--repos", scratch.path + "/repos.txt", "--datastore", scratch.path + "/d.db"], cwd: scratch.path)
            XCTAssertEqual(dash.status, 2, dash.stderr)
            XCTAssertTrue(dash.stderr.contains("line 1 starts with `-`"), dash.stderr)
        }
    }

    func testARepositoryNamedLikeAnOptionIsSweptAsARepository() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let repo = HistoryFixture(in: scratch, name: "--output=x", commits: 2, perCommit: 1)
        let db = scratch.path + "/d.db"
        let r = CLI.keyshape(["sweep", "--datastore", db, "--rules", scratch.path + "/rules.toml", "--no-builtin-rules", "--", "--output=x"],
                             cwd: scratch.path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("] --output=x: 2 findings, 2 in the sources at HEAD"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/x"), "no child wrote a report to x")
        let lines = CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"]).stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, "each secret in its commit and in the sources")
        for secret in repo.secrets { TestSecrets.assertNoFragment(of: secret, in: Data(r.stderr.utf8), "sweep output") }
    }

    /// Sweep's own lines are written raw around each repository's name: the name is escaped.
    func testARepositoryNameIsEscapedInTheSweepLines() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        _ = HistoryFixture(in: scratch, name: "a\u{1B}[2J\u{200B}b", commits: 1, perCommit: 1)
        let r = CLI.keyshape(["sweep", "--datastore", scratch.path + "/d.db", "--rules", scratch.path + "/rules.toml",
                              "--no-builtin-rules", "--", "a\u{1B}[2J\u{200B}b"], cwd: scratch.path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(#"] a\x1b[2J\u{200b}b: 1 finding"#), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1B}"), "no raw escape character")
        XCTAssertFalse(r.stderr.contains("\u{200B}"), "no raw zero-width space")
    }
}
