import Foundation
import XCTest
import TestSupport

/// `keyshape hook install` and `uninstall`: pre-commit and pre-push hooks that really block,
/// say why in one closing line and nothing when clean, chain or replace a hook that was there,
/// core.hooksPath, and the documented pre-receive recipe on a bare repository.
final class HookTests: XCTestCase {
    let a = canary("AlphaHook001"), b = canary("BravoHook002")

    func commit(_ repo: GitFixture, _ args: [String]) -> Run {
        runProcess(GitFixture.gitPath, ["-C", repo.path, "commit", "-q"] + args, env: repo.environment())
    }

    func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    func testPreCommitBlocksAKeyAndLetsCleanCommitsThrough() throws {
        let repo = GitFixture()
        repo.write("README", "hi\n")
        repo.commit("init")
        let install = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(install.status, 0, install.stderr)
        let hook = repo.path + "/.git/hooks/pre-commit"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: hook))
        XCTAssertTrue(try String(contentsOfFile: hook, encoding: .utf8).contains("staged --hook"))

        repo.write("k.env", "TOKEN=\(a)\n")
        repo.git(["add", "k.env"])
        let blocked = commit(repo, ["-m", "leak"])
        XCTAssertNotEqual(blocked.status, 0, "the hook blocks the commit")
        XCTAssertTrue((blocked.stdout + blocked.stderr).contains("k.env:1:7: keyshape-canary"), "git shows hook output on stderr")
        assertNoFragment(of: a, in: blocked.stdout + blocked.stderr, "hook output")
        XCTAssertEqual(repo.git(["rev-list", "--count", "HEAD"]), "1")
        // The last thing said is why the commit stopped and what to do about it, on one line.
        let why = lastLine(blocked.stderr)
        XCTAssertTrue(why.hasPrefix("keyshape: commit stopped: the staged changes add a secret"), blocked.stderr)
        for advice in ["rotate", "keyshape:allow", "baseline", "git commit --no-verify"] {
            XCTAssertTrue(why.contains(advice), "the closing line mentions \(advice): \(why)")
        }

        repo.git(["reset", "-q"])
        repo.remove("k.env")
        repo.write("README", "hi\nclean change\n")
        let ok = commit(repo, ["-am", "clean"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdout + ok.stderr, "", "a clean commit prints nothing at all")

        // `git commit -a` stages into a temporary index: the hook sees it.
        repo.write("README", "hi\nclean change\nTOKEN=\(b)\n")
        let blockedAll = commit(repo, ["-am", "leak via -a"])
        XCTAssertNotEqual(blockedAll.status, 0)
        XCTAssertTrue((blockedAll.stdout + blockedAll.stderr).contains("README:3:7"))
        XCTAssertEqual(repo.git(["rev-list", "--count", "HEAD"]), "2")

        // Reinstalling over its own hook is fine, and chains nothing.
        XCTAssertEqual(keyshape(["hook", "install", repo.path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: hook + ".keyshape-chained"))
    }

    /// A baseline at the top of the work tree is what a hook run (`--hook`) reads.
    func testInstalledHookReadsTheRepositoryBaseline() {
        let repo = GitFixture()
        repo.commit("init")
        XCTAssertEqual(keyshape(["hook", "install", repo.path]).status, 0)
        repo.write("k.env", "TOKEN=\(a)\n")
        repo.git(["add", "k.env"])
        XCTAssertNotEqual(commit(repo, ["-m", "leak"]).status, 0)
        let accept = keyshape(["staged", repo.path, "--write-baseline", repo.path + "/.keyshape-baseline.json"])
        XCTAssertEqual(accept.status, 1, accept.stderr)
        repo.git(["add", ".keyshape-baseline.json"])
        let accepted = commit(repo, ["-m", "accepted key"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.stdout + accepted.stderr, "")
    }

    /// A staged file over the size limit blocks the commit (it was not scanned) and its error
    /// names the flag and config key that raise the limit. The limit is the user's to set
    /// (a repository's `[scan] maxFileSize` is ignored), so the hook is given the flag here.
    func testOversizedStagedFileNamesTheConfigKey() throws {
        let repo = GitFixture()
        repo.commit("init")
        XCTAssertEqual(keyshape(["hook", "install", repo.path]).status, 0)
        let hook = repo.path + "/.git/hooks/pre-commit"
        let script = try String(contentsOfFile: hook, encoding: .utf8)
        XCTAssertTrue(script.contains("staged --hook"), script)
        try script.replacingOccurrences(of: "staged --hook", with: "staged --hook --max-file-size 64").write(toFile: hook, atomically: false, encoding: .utf8)
        repo.write("big.txt", String(repeating: "clean text line\n", count: 20))
        repo.git(["add", "big.txt"])
        let blocked = commit(repo, ["-m", "big"])
        XCTAssertNotEqual(blocked.status, 0, "what was not scanned does not pass")
        XCTAssertTrue(blocked.stderr.contains("big.txt"), blocked.stderr)
        XCTAssertTrue(blocked.stderr.contains("--max-file-size, or `[scan] maxFileSize`"), blocked.stderr)
        XCTAssertTrue(lastLine(blocked.stderr).hasPrefix("keyshape: commit stopped: part of the staged changes could not be scanned"), blocked.stderr)
    }

    /// An existing hook is chained: both run, and the commit fails if either fails.
    /// `uninstall` puts it back exactly as it was.
    func testExistingHookIsChainedAndRestoredByUninstall() throws {
        let repo = GitFixture()
        repo.commit("init")
        let hook = repo.path + "/.git/hooks/pre-commit"
        let log = repo.dir.path + "/foreign.log"
        let foreign = "#!/bin/sh\necho ran >> '\(log)'\n[ ! -f \"$(git rev-parse --show-toplevel)/fail-foreign\" ]\n"
        try FileManager.default.createDirectory(atPath: repo.path + "/.git/hooks", withIntermediateDirectories: true)
        try Data(foreign.utf8).write(to: URL(fileURLWithPath: hook))
        chmod(hook, 0o755)

        let install = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stderr.contains("chained"), install.stderr)
        XCTAssertEqual(try String(contentsOfFile: hook + ".keyshape-chained", encoding: .utf8), foreign)

        // Clean change, foreign hook passes: both run, the commit goes through.
        repo.write("a.txt", "fine\n")
        repo.git(["add", "a.txt"])
        XCTAssertEqual(commit(repo, ["-m", "clean"]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "ran\n", "the chained hook ran")

        // The foreign hook fails on a clean change: the commit fails.
        repo.write("fail-foreign", "x\n")
        repo.git(["add", "fail-foreign"])
        XCTAssertNotEqual(commit(repo, ["-m", "foreign says no"]).status, 0)
        repo.git(["rm", "-q", "--cached", "fail-foreign"])
        repo.remove("fail-foreign")

        // The foreign hook passes, keyshape finds a key: the commit fails, and both ran.
        repo.write("k.env", "TOKEN=\(a)\n")
        repo.git(["add", "k.env"])
        let blocked = commit(repo, ["-m", "leak"])
        XCTAssertNotEqual(blocked.status, 0)
        XCTAssertTrue(blocked.stderr.contains("k.env:1:7"), blocked.stderr)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "ran\nran\nran\n")
        XCTAssertEqual(repo.git(["rev-list", "--count", "HEAD"]), "2")

        // Uninstall restores the chained hook byte for byte.
        let removed = keyshape(["hook", "uninstall", repo.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try String(contentsOfFile: hook, encoding: .utf8), foreign)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: hook))
        XCTAssertFalse(FileManager.default.fileExists(atPath: hook + ".keyshape-chained"))
        // A hook keyshape did not write is never removed.
        let refused = keyshape(["hook", "uninstall", repo.path])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("not written by keyshape"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: hook, encoding: .utf8), foreign)
    }

    func testHooksPathForeignHookAndForce() throws {
        let repo = GitFixture()
        repo.git(["config", "core.hooksPath", ".githooks"])
        let dir = repo.path + "/.githooks"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let foreign = "#!/bin/sh\necho mine\n"
        try Data(foreign.utf8).write(to: URL(fileURLWithPath: dir + "/pre-commit"))
        let forced = keyshape(["hook", "install", repo.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/pre-commit"))
        XCTAssertTrue(try String(contentsOfFile: dir + "/pre-commit", encoding: .utf8).contains("keyshape"))
        XCTAssertEqual(try String(contentsOfFile: dir + "/pre-commit.keyshape-backup", encoding: .utf8), foreign)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/pre-commit.keyshape-chained"), "--force replaces, not chains")
        XCTAssertEqual(keyshape(["hook", "install", repo.path, "--pre-push"]).status, 0)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dir + "/pre-push"))

        // Uninstalling puts the replaced hook back; the pre-push hook is removed on its own.
        XCTAssertEqual(keyshape(["hook", "uninstall", repo.path]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: dir + "/pre-commit", encoding: .utf8), foreign)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/pre-push"))
        XCTAssertEqual(keyshape(["hook", "uninstall", repo.path, "--pre-push"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/pre-push"))
        let none = keyshape(["hook", "uninstall", repo.path, "--pre-push"])
        XCTAssertEqual(none.status, 0, "nothing to remove is not an error")
        XCTAssertTrue(none.stdout.contains("nothing to remove"), none.stdout)
        XCTAssertEqual(keyshape(["hook", "remove", repo.path]).status, 2)
    }

    /// A repository's config is data. Its core.hooksPath, full of control characters and ending
    /// in a carriage return, is where git runs hooks from, so the hook goes exactly there (not
    /// to the name without its last character, nor to .git/hooks), and the path printed is
    /// escaped; its core.fsmonitor program is never run by install or uninstall.
    func testHostileHooksPathAndFsmonitorRunNothing() throws {
        let repo = GitFixture()
        let tmp = TempDir()
        let ran = tmp.path + "/fsmonitor-ran"
        let program = tmp.path + "/monitor"
        try Data("#!/bin/sh\ntouch '\(ran)'\n".utf8).write(to: URL(fileURLWithPath: program))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        let folder = ".hooks \u{1B}[2J\r"
        repo.git(["config", "core.hooksPath", folder])
        repo.git(["config", "core.fsmonitor", program])

        let installed = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let hook = repo.path + "/" + folder + "/pre-commit"
        XCTAssertTrue(try String(contentsOfFile: hook, encoding: .utf8).contains("# installed by keyshape hook install"), "the hook is where git runs it from")
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.hooks \u{1B}[2J/pre-commit"), "the folder name is not trimmed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/pre-commit"))
        XCTAssertFalse(installed.stdout.contains("\u{1B}") || installed.stdout.contains("\r"), "the printed path is escaped")
        XCTAssertEqual(keyshape(["hook", "uninstall", repo.path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: hook))
        XCTAssertFalse(FileManager.default.fileExists(atPath: ran), "keyshape ran the repository's fsmonitor program")

        // The trap is live: git itself runs the program, so the marker above could have appeared.
        repo.git(["status"], expect: nil)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ran), "git status runs core.fsmonitor")
    }

    /// A chained pre-push hook gets the same ref lines on stdin as keyshape's part.
    func testChainedPrePushHookSeesTheRefs() throws {
        let remote = GitFixture(bare: true, name: "remote.git")
        let repo = GitFixture()
        repo.write("a.txt", "clean\n")
        repo.commit("clean")
        repo.git(["remote", "add", "origin", remote.path])
        let log = repo.dir.path + "/refs.log"
        let hook = repo.path + "/.git/hooks/pre-push"
        try FileManager.default.createDirectory(atPath: repo.path + "/.git/hooks", withIntermediateDirectories: true)
        try Data("#!/bin/sh\ncat >> '\(log)'\n".utf8).write(to: URL(fileURLWithPath: hook))
        chmod(hook, 0o755)
        XCTAssertEqual(keyshape(["hook", "install", repo.path, "--pre-push"]).status, 0)
        let pushed = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertEqual(pushed.status, 0, pushed.stderr)
        XCTAssertEqual(pushed.stdout + pushed.stderr, "", "a clean push prints nothing")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "refs/heads/main \(repo.rev("HEAD")) refs/heads/main \(String(repeating: "0", count: 40))\n")

        repo.write("c.txt", "new=\(b)\n")
        repo.commit("leak")
        let blocked = runProcess(GitFixture.gitPath, ["-C", repo.path, "push", "-q", "origin", "main"], env: repo.environment())
        XCTAssertNotEqual(blocked.status, 0)
        // git adds its own "failed to push" after the hook; keyshape's last word is the reason.
        let ours = blocked.stderr.split(separator: "\n").filter { $0.hasPrefix("keyshape:") }
        XCTAssertTrue(ours.last?.hasPrefix("keyshape: push stopped: the pushed commits add a secret") == true, blocked.stderr)
        XCTAssertTrue(ours.last?.contains("git push --no-verify") == true, blocked.stderr)
        assertNoFragment(of: b, in: blocked.stdout + blocked.stderr, "pre-push")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count, 2)
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

    /// docs/ci.md's pre-receive recipe, verbatim apart from the keyshape path.
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
