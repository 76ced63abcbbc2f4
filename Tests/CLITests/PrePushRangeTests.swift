import Foundation
import XCTest
import TestSupport

/// The pre-commit framework's pre-push stage runs `.pre-commit-hooks.yaml`'s entry with
/// `PRE_COMMIT_FROM_REF` empty for a new branch and both refs empty for a repository's first
/// push: an empty or zero lower bound means the commits no remote-tracking ref reaches yet,
/// never an error (it was "--range : not a commit", exit 2, on every first push).
final class PrePushRangeTests: XCTestCase {
    /// The hook's entry as the framework runs it (`sh -c`), with keyshape on PATH.
    func entry(_ repo: GitFixture, from: String, to: String) -> Run {
        let hooks = (try? String(contentsOfFile: Repo.path(".pre-commit-hooks.yaml"), encoding: .utf8)) ?? ""
        let line = hooks.split(separator: "\n").first { $0.contains("entry: sh -c") && $0.contains("history") } ?? ""
        let script = line.components(separatedBy: "sh -c '").last.map { String($0.dropLast()) } ?? ""
        XCTAssertTrue(script.contains("keyshape history"), "the pre-push entry: \(line)")
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Binary.url.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["PRE_COMMIT_FROM_REF"] = from
        env["PRE_COMMIT_TO_REF"] = to
        return runProcess("/bin/sh", ["-c", script], cwd: repo.path, env: env)
    }

    func testFirstPushOfACleanRepositoryPassesAndAKeyIsRefused() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        repo.commit("first")
        let clean = entry(repo, from: "", to: "")
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        let head = repo.commit("again", all: false)
        XCTAssertEqual(entry(repo, from: "", to: head).status, 0)
        let secret = canary("prepush1")
        repo.write("deploy.env", "token = \(secret)\n")
        let withKey = repo.commit("deploy")
        let refused = entry(repo, from: "", to: withKey)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        assertNoFragment(of: secret, in: refused.stdout + refused.stderr, "hook output")
        XCTAssertEqual(entry(repo, from: "", to: "").status, 1, "both refs empty: what HEAD reaches")
    }

    /// In a clone, a new branch's push scans only what no remote-tracking ref reaches: a key
    /// already on the remote's history is not the push's, a new one is.
    func testNewBranchInACloneScansOnlyUnpushedCommits() {
        let origin = GitFixture()
        let old = canary("pushedOld1")
        origin.write("old.env", "token = \(old)\n")
        origin.commit("old key, already public")
        let clone = GitFixture(initialize: false)
        clone.git(["clone", "-q", origin.path, clone.path])
        clone.configure()
        clone.git(["checkout", "-q", "-b", "feature"])
        clone.write("notes.txt", "nothing here\n")
        let tip = clone.commit("feature work")
        let clean = entry(clone, from: "", to: tip)
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        let zero = String(repeating: "0", count: 40)
        XCTAssertEqual(entry(clone, from: zero, to: tip).status, 0, "a zero lower bound means the same")
        let new = canary("pushedNew2")
        clone.write("new.env", "token = \(new)\n")
        let withKey = clone.commit("new key")
        let refused = entry(clone, from: "", to: withKey)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        assertNoFragment(of: new, in: refused.stdout + refused.stderr, "hook output")
    }
}
