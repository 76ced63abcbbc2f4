import Foundation
import XCTest
import TestSupport

/// Refs that hide history from `git log`: a key reachable only from one of them is still
/// found. Each repository is built so that nothing else reaches the key (branches moved
/// back, reflogs expired), and the test checks that first.
final class HistoryHiddenRefsTests: XCTestCase {
    let a = canary("HiddenKey01"), b = canary("HiddenKey02")

    /// A repository whose main branch has one clean commit, and a commit adding `a` at
    /// `keys.env` (and `b` on line 3 of its message) that `hide` moves out of sight.
    func hiddenCommit(_ hide: (GitFixture, String) -> Void) -> (GitFixture, String) {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let clean = repo.commit("init")
        repo.write("keys.env", "TOKEN=\(a)\n")
        let leaky = repo.commit("add keys\n\nsee \(b)\n")
        hide(repo, leaky)
        repo.git(["reset", "-q", "--hard", clean])
        expireReflogs(repo)
        return (repo, leaky)
    }

    func expireReflogs(_ repo: GitFixture) {
        repo.git(["reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"])
    }

    /// Nothing but `ref` reaches `commit` (git's own view, replace objects off).
    func assertOnlyReachableFrom(_ repo: GitFixture, _ commit: String, _ ref: String, file: StaticString = #filePath, line: UInt = #line) {
        let refs = repo.git(["for-each-ref", "--format=%(refname)"]).split(separator: "\n").map(String.init)
        for other in refs where other != ref {
            let r = runProcess(GitFixture.gitPath, ["-C", repo.path, "merge-base", "--is-ancestor", commit, other],
                               env: repo.environment(["GIT_NO_REPLACE_OBJECTS": "1"]))
            XCTAssertNotEqual(r.status, 0, "\(other) reaches the commit too", file: file, line: line)
        }
        XCTAssertEqual(repo.git(["reflog", "show", "--all", "--format=%H"]).split(separator: "\n").filter { $0 == commit }.count, 0,
                       "a reflog still names it", file: file, line: line)
    }

    func assertFound(_ repo: GitFixture, _ leaky: String, file: StaticString = #filePath, line: UInt = #line) {
        let report = keyshapeJSON(["history", repo.path], secrets: [a, b], file: file, line: line)
        XCTAssertEqual(report.run.status, 1, report.run.stderr, file: file, line: line)
        XCTAssertEqual(places(report.findings), ["\(leaky) :3", "\(leaky) keys.env:1"], file: file, line: line)
    }

    func testOnlyUnderRefsOriginal() {
        let (repo, leaky) = hiddenCommit { repo, c in repo.git(["update-ref", "refs/original/refs/heads/main", c]) }
        assertOnlyReachableFrom(repo, leaky, "refs/original/refs/heads/main")
        assertFound(repo, leaky)
    }

    func testOnlyUnderRefsPull() {
        let (repo, leaky) = hiddenCommit { repo, c in repo.git(["update-ref", "refs/pull/1/head", c]) }
        assertOnlyReachableFrom(repo, leaky, "refs/pull/1/head")
        assertFound(repo, leaky)
    }

    func testOnlyUnderANotesRef() {
        // A notes ref is a commit chain like any other: here one whose commit holds the key.
        let (repo, leaky) = hiddenCommit { repo, c in repo.git(["update-ref", "refs/notes/hidden", c]) }
        assertOnlyReachableFrom(repo, leaky, "refs/notes/hidden")
        assertFound(repo, leaky)
    }

    func testOnlyUnderRefsStash() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        repo.commit("init")
        repo.write("README", "hello\nTOKEN=\(a)\n")
        repo.git(["stash", "-q"])
        let stash = repo.rev("refs/stash")
        expireReflogs(repo)  // the stash's own reflog goes too: only the ref is left
        XCTAssertEqual(repo.rev("refs/stash"), stash)
        assertOnlyReachableFrom(repo, stash, "refs/stash")
        let report = keyshapeJSON(["history", repo.path], secrets: [a, b])
        XCTAssertEqual(places(report.findings), ["\(stash) README:2"])
    }

    func testReplacedCommitAndItsReplacementAreBothScanned() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let clean = repo.commit("init")
        repo.write("keys.env", "TOKEN=\(a)\n")
        let original = repo.commit("add keys")
        // The replacement, made on a branch then deleted: only refs/replace reaches it.
        repo.git(["checkout", "-q", "-b", "side", clean])
        repo.write("other.env", "TOKEN=\(b)\n")
        let replacement = repo.commit("replacement")
        repo.git(["checkout", "-q", "main"])
        repo.git(["branch", "-q", "-D", "side"])
        repo.git(["replace", original, replacement])
        expireReflogs(repo)
        // git log now shows the replacement's content where the original was (under the
        // original's name), and the original's file is gone from what it shows.
        XCTAssertFalse(repo.git(["log", "--name-only", "--format=", "main"]).contains("keys.env"))
        XCTAssertEqual(repo.git(["show", "-s", "--format=%s", "main"]), "replacement")
        let report = keyshapeJSON(["history", repo.path], secrets: [a, b])
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(places(report.findings), ["\(original) keys.env:1", "\(replacement) other.env:1"].sorted())
    }

    func testOnlyInAReflogEntry() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let clean = repo.commit("init")
        repo.write("keys.env", "TOKEN=\(a)\n")
        let leaky = repo.commit("add keys\n\nsee \(b)\n")
        repo.git(["reset", "-q", "--hard", clean])  // main's and HEAD's reflogs still name it
        let refs = repo.git(["for-each-ref", "--format=%(refname)"]).split(separator: "\n").map(String.init)
        XCTAssertEqual(refs, ["refs/heads/main"])
        repo.git(["merge-base", "--is-ancestor", leaky, "main"], expect: 1)
        assertFound(repo, leaky)
    }
}
