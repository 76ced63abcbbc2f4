import Foundation
import XCTest

/// `keyshape hook install`: pre-commit and pre-push hooks that really block, core.hooksPath,
/// foreign hooks, and the documented pre-receive recipe on a bare repository.
final class HookTests: XCTestCase {
    let a = canary("AlphaHook001"), b = canary("BravoHook002")

    func testPreCommitBlocksAKeyAndLetsCleanCommitsThrough() throws {
        let repo = GitFixture()
        repo.write("README", "hi\n")
        repo.commit("init")
        let install = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(install.status, 0, install.stderr)
        let hook = repo.path + "/.git/hooks/pre-commit"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: hook))
        XCTAssertTrue(try String(contentsOfFile: hook, encoding: .utf8).contains("staged --no-progress"))

        repo.write("k.env", "TOKEN=\(a)\n")
        repo.git(["add", "k.env"])
        let blocked = runProcess(GitFixture.gitPath, ["-C", repo.path, "commit", "-q", "-m", "leak"], env: repo.environment())
        XCTAssertNotEqual(blocked.status, 0, "the hook blocks the commit")
        XCTAssertTrue((blocked.stdout + blocked.stderr).contains("k.env:1:7: keyshape-canary"), "git shows hook output on stderr")
        assertNoFragment(of: a, in: blocked.stdout + blocked.stderr, "hook output")
        XCTAssertEqual(repo.git(["rev-list", "--count", "HEAD"]), "1")

        repo.git(["reset", "-q"])
        repo.remove("k.env")
        repo.write("README", "hi\nclean change\n")
        let ok = runProcess(GitFixture.gitPath, ["-C", repo.path, "commit", "-q", "-am", "clean"], env: repo.environment())
        XCTAssertEqual(ok.status, 0, ok.stderr)

        // `git commit -a` stages into a temporary index: the hook sees it.
        repo.write("README", "hi\nclean change\nTOKEN=\(b)\n")
        let blockedAll = runProcess(GitFixture.gitPath, ["-C", repo.path, "commit", "-q", "-am", "leak via -a"], env: repo.environment())
        XCTAssertNotEqual(blockedAll.status, 0)
        XCTAssertTrue((blockedAll.stdout + blockedAll.stderr).contains("README:3:7"))
        XCTAssertEqual(repo.git(["rev-list", "--count", "HEAD"]), "2")

        // Reinstalling over its own hook is fine.
        XCTAssertEqual(keyshape(["hook", "install", repo.path]).status, 0)
    }

    func testHooksPathForeignHookAndForce() throws {
        let repo = GitFixture()
        repo.git(["config", "core.hooksPath", ".githooks"])
        let dir = repo.path + "/.githooks"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let foreign = "#!/bin/sh\necho mine\n"
        try Data(foreign.utf8).write(to: URL(fileURLWithPath: dir + "/pre-commit"))
        let refused = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("--force"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/pre-commit", encoding: .utf8), foreign)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/pre-commit"))
        let forced = keyshape(["hook", "install", repo.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(try String(contentsOfFile: dir + "/pre-commit", encoding: .utf8).contains("keyshape"))
        XCTAssertEqual(try String(contentsOfFile: dir + "/pre-commit.keyshape-backup", encoding: .utf8), foreign)
        XCTAssertEqual(keyshape(["hook", "install", repo.path, "--pre-push"]).status, 0)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dir + "/pre-push"))
        XCTAssertEqual(keyshape(["hook", "uninstall", repo.path]).status, 2)
    }

    func testPrePushScansOnlyThePushedCommits() {
        let remote = GitFixture(bare: true, name: "remote.git")
        let repo = GitFixture()
        repo.write("a.txt", "old=\(a)\n")  // already on the remote: not the push's business
        repo.commit("old key")
        repo.git(["remote", "add", "origin", remote.path])
        repo.git(["push", "-q", "origin", "main"])
        XCTAssertEqual(keyshape(["hook", "install", repo.path, "--pre-push"]).status, 0)

        repo.write("b.txt", "clean\n")
        repo.commit("clean")
        let ok = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertEqual(ok.status, 0, ok.stdout + ok.stderr)

        repo.write("c.txt", "x\nnew=\(b)\n")
        let leak = repo.commit("leak")
        let blocked = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertNotEqual(blocked.status, 0)
        XCTAssertTrue(blocked.stdout.contains("\(leak.prefix(7)) c.txt:2:5"), blocked.stdout + blocked.stderr)
        XCTAssertFalse(blocked.stdout.contains("a.txt"), blocked.stdout)
        assertNoFragment(of: a, in: blocked.stdout + blocked.stderr, "pre-push")
        assertNoFragment(of: b, in: blocked.stdout + blocked.stderr, "pre-push")

        // A new branch: only what no remote-tracking ref has.
        repo.git(["reset", "-q", "--hard", "HEAD~1"])
        repo.git(["checkout", "-q", "-b", "feature"])
        repo.write("d.txt", "fine\n")
        repo.commit("feature")
        let newBranch = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "feature"], env: repo.environment())
        XCTAssertEqual(newBranch.status, 0, newBranch.stdout + newBranch.stderr)
    }

    /// The README's pre-receive recipe, verbatim apart from the keyshape path.
    func testPreReceiveRecipe() throws {
        let server = GitFixture(bare: true, name: "server.git")
        let hook = """
        #!/bin/sh
        # hooks/pre-receive: refuse pushes that add secrets
        status=0
        while read -r old new ref; do
            case "$new" in *[!0]*) ;; *) continue ;; esac    # a deleted ref pushes no commits
            \(Binary.url.path) history --no-progress --range "$old..$new" || status=1
        done
        exit $status
        """
        try Data(hook.utf8).write(to: URL(fileURLWithPath: server.path + "/hooks/pre-receive"))
        chmod(server.path + "/hooks/pre-receive", 0o755)
        let repo = GitFixture()
        repo.write("a.txt", "clean\n")
        repo.commit("clean")
        repo.git(["remote", "add", "origin", server.path])
        let first = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertEqual(first.status, 0, first.stderr)
        repo.write("b.txt", "k=\(a)\n")
        let leak = repo.commit("leak")
        let pushed = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertNotEqual(pushed.status, 0, "the server refuses")
        XCTAssertTrue(pushed.stderr.contains("\(leak.prefix(7)) b.txt:1:3"), pushed.stderr)
        assertNoFragment(of: a, in: pushed.stdout + pushed.stderr, "pre-receive")
        XCTAssertNotEqual(runProcess(GitFixture.gitPath, ["-C", server.path, "rev-parse", "main"], env: server.environment()).stdout.trimmingCharacters(in: .whitespacesAndNewlines), leak)
        // A new branch carrying the key is refused too (old is all zeros: commits on no ref yet).
        repo.git(["checkout", "-q", "-b", "topic"])
        let newRef = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "topic"], env: repo.environment())
        XCTAssertNotEqual(newRef.status, 0)
        XCTAssertTrue(newRef.stderr.contains("b.txt:1:3"), newRef.stderr)
    }
}
