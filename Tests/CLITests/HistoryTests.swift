import Foundation
import XCTest
import TestSupport

/// `keyshape history` on fixture repositories built here: each case asserts the exact
/// commit, path and line, and that no output holds a fragment of a canary.
final class HistoryTests: XCTestCase {
    let a = canary("AlphaKey01"), b = canary("BravoKey02"), c = canary("CharlieKey3")
    var secrets: [String] { [a, b, c] }

    func history(_ repo: GitFixture, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> ParsedReport {
        keyshapeJSON(["history", repo.path] + extra, secrets: secrets, file: file, line: line)
    }

    func testAddedThenDeletedSurvivingEditsAndReAdded() {
        let repo = GitFixture()
        repo.write("config.env", "# settings\nTOKEN=\(a)\nmode=1\n")
        let added = repo.commit("add key")
        repo.write("config.env", "# settings, edited\nTOKEN=\(a)\nmode=2\n")  // the key survives an edit
        repo.commit("edit around it")
        repo.write("config.env", "# settings, edited\nmode=2\n")
        repo.commit("remove key")
        repo.write("notes.txt", "unrelated\n")
        repo.commit("later")
        let report = history(repo)
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(places(report.findings), ["\(added) config.env:2"])
        let f = report.findings[0]
        XCTAssertEqual(f.kind, "commit")
        XCTAssertEqual(f.column, 7)
        XCTAssertEqual(f.author, "Ada Tester")
        XCTAssertEqual(f.email, "ada@example.com")
        XCTAssertEqual(f.date, repo.git(["show", "-s", "--format=%aI", added]))
        XCTAssertEqual(f.blob, repo.rev("\(added):config.env"))
        XCTAssertTrue(report.run.stderr.contains("4 commits"), report.run.stderr)

        // Added back after deletion: a second finding, at the commit that re-added it.
        repo.write("config.env", "# settings, edited\nmode=2\nTOKEN=\(a)\n")
        let readded = repo.commit("re-add key")
        let again = history(repo)
        XCTAssertEqual(places(again.findings), ["\(added) config.env:2", "\(readded) config.env:3"].sorted())
        XCTAssertEqual(Set(again.findings.map(\.fingerprint)).count, 1, "same rule, path and secret: one fingerprint")

        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertTrue(text.stdout.contains("\(added.prefix(7)) config.env:2:7: keyshape-canary "), text.stdout)
        for s in secrets { assertNoFragment(of: s, in: text.stdout + text.stderr, "text report") }
    }

    func testDeletedBranchOnlyInReflog() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        repo.commit("init")
        repo.git(["checkout", "-q", "-b", "tmp"])
        repo.write("lib/keys.swift", "let k = \"\(a)\"\n")
        let onBranch = repo.commit("key on a branch")
        repo.git(["checkout", "-q", "main"])
        repo.git(["branch", "-q", "-D", "tmp"])
        XCTAssertEqual(repo.git(["branch", "--contains", onBranch], expect: nil), "")
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(onBranch) lib/keys.swift:1"])
    }

    func testStashEntries() {
        let repo = GitFixture()
        repo.write("app.cfg", "name=app\n")
        repo.commit("init")
        repo.write("app.cfg", "name=app\nkey=\(a)\n")
        repo.git(["stash", "-q"])
        let older = repo.rev("stash@{0}")
        repo.write("app.cfg", "name=app\nother=\(b)\n")
        repo.git(["add", "app.cfg"])  // staged, then stashed: the stash's index commit adds it
        repo.git(["stash", "-q"])
        let newer = repo.rev("stash@{0}")
        XCTAssertEqual(repo.rev("stash@{1}"), older)
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(older) app.cfg:2", "\(repo.rev("\(newer)^2")) app.cfg:2"].sorted())
    }

    func testDanglingBlobNeedsAllObjectsAndWorksPackedAndThroughAlternates() {
        let repo = GitFixture()
        repo.write("a.txt", "clean\n")
        let first = repo.commit("init")
        repo.write("leak.txt", "one\ntwo=\(b)\n")
        repo.git(["add", "leak.txt"])
        let blob = repo.rev(":leak.txt")
        repo.git(["reset", "-q"])
        repo.remove("leak.txt")
        repo.write("a.txt", "clean\nkey=\(a)\n")
        let second = repo.commit("key")

        let plain = history(repo)
        XCTAssertEqual(places(plain.findings), ["\(second) a.txt:2"])
        let all = history(repo, ["--all-objects"])
        XCTAssertEqual(places(all.findings), ["\(second) a.txt:2", "blob \(blob)"].sorted())
        XCTAssertEqual(all.findings.first { $0.kind == "blob" }?.path, nil)

        // Packed: a blob committed on a branch, packed, then made unreachable (branch and reflogs gone).
        repo.git(["checkout", "-q", "-b", "doomed"])
        repo.write("packed.txt", "p=\(c)\n")
        repo.commit("doomed")
        let packedBlob = repo.rev("HEAD:packed.txt")
        repo.git(["checkout", "-q", "main"])
        repo.git(["repack", "-q", "-a", "-d"])
        repo.git(["branch", "-q", "-D", "doomed"])
        repo.git(["reflog", "expire", "--expire=now", "--all"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/objects/" + packedBlob.prefix(2) + "/" + packedBlob.dropFirst(2)))
        XCTAssertEqual(places(history(repo).findings), ["\(second) a.txt:2"])
        XCTAssertEqual(places(history(repo, ["--all-objects"]).findings), ["\(second) a.txt:2", "blob \(blob)", "blob \(packedBlob)"].sorted())

        // A clone borrowing every object through alternates.
        let clone = GitFixture(initialize: false)
        runProcess(GitFixture.gitPath, ["clone", "-q", "--shared", repo.path, clone.path], env: clone.environment())
        XCTAssertTrue(FileManager.default.fileExists(atPath: clone.path + "/.git/objects/info/alternates"))
        let cloned = history(clone)
        XCTAssertEqual(places(cloned.findings), ["\(second) a.txt:2"])
        XCTAssertEqual(cloned.run.status, 1)
        _ = first
    }

    func testRenameDoesNotReReport() {
        let repo = GitFixture()
        repo.write("a.txt", "line one\nkey=\(a)\nline three\nline four\nline five\n")
        let added = repo.commit("add")
        repo.git(["mv", "a.txt", "moved.txt"])
        repo.commit("pure rename")
        repo.git(["mv", "moved.txt", "renamed.txt"])
        repo.write("renamed.txt", "line one\nkey=\(a)\nline three\nline four\nline five changed\n")
        repo.commit("rename with an edit")
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(added) a.txt:2"])
    }

    func testMergeFromSideBranchAndEvilMerge() {
        let repo = GitFixture()
        repo.write("shared.txt", "base\n")
        repo.write("main.txt", "main\n")
        repo.commit("base")
        repo.git(["checkout", "-q", "-b", "side"])
        repo.write("side.txt", "s=\(a)\n")
        repo.write("shared.txt", "base\nside edit\n")
        let sideCommit = repo.commit("side adds key")
        repo.git(["checkout", "-q", "main"])
        repo.write("main.txt", "main\nmore\n")
        repo.commit("main moves on")
        repo.git(["merge", "-q", "--no-ff", "-m", "merge side", "side"])
        let merge = repo.rev("HEAD")
        XCTAssertEqual(repo.git(["rev-list", "--parents", "-n1", "HEAD"]).split(separator: " ").count, 3)

        // An evil merge: the merge commit itself adds a key no parent had.
        repo.git(["checkout", "-q", "-b", "side2", "main~1"])
        repo.write("other.txt", "x\n")
        repo.commit("side2")
        repo.git(["checkout", "-q", "main"])
        repo.git(["merge", "-q", "--no-ff", "--no-commit", "side2"])
        repo.write("main.txt", "main\nmore\nevil=\(b)\n")
        repo.git(["add", "main.txt"])
        repo.git(["commit", "-q", "-m", "evil merge"])
        let evil = repo.rev("HEAD")
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(sideCommit) side.txt:1", "\(evil) main.txt:3"].sorted())
        XCTAssertFalse(report.findings.contains { $0.commit == merge })
    }

    func testBinaryFileInHistory() {
        let repo = GitFixture()
        var bytes: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0, 0, 0, 1, 2, 3]
        bytes += Array(repeating: 0, count: 30)
        let offset = bytes.count
        bytes += Array(a.utf8) + [0, 0, 0xFF, 0xFE]
        repo.writeBytes(Array("assets/blob.bin".utf8), bytes)
        let added = repo.commit("binary")
        let report = history(repo)
        XCTAssertEqual(report.findings.count, 1)
        XCTAssertEqual(report.findings.first?.commit, added)
        XCTAssertEqual(report.findings.first?.path, "assets/blob.bin")
        XCTAssertEqual(report.findings.first?.line, nil, "binary: no line")
        XCTAssertEqual(report.findings.first?.byteOffset, offset)
    }

    func testNonUTF8AndWhitespacePaths() {
        let repo = GitFixture()
        repo.writeBytes([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74], Array("x\n\(a)\n".utf8))  // "caf\xE9.txt"
        repo.writeBytes(Array("dir with space/new\nline.txt".utf8), Array("\(b)\n".utf8))
        let added = repo.commit("odd names")
        let report = history(repo)
        // The byte that is not UTF-8 is shown as `\xe9` (as `scan` shows it), not U+FFFD, so
        // names differing only in such bytes print apart.
        XCTAssertEqual(places(report.findings), ["\(added) caf\\xe9.txt:2", "\(added) dir with space/new\nline.txt:1"].sorted())
    }

    func testSubmoduleEntryIsANoteNotAnError() {
        let repo = GitFixture()
        repo.write("a.txt", "hi\n")
        let first = repo.commit("init")
        repo.git(["update-index", "--add", "--cacheinfo", "160000,\(first),vendor/lib"])
        repo.write("b.txt", "k=\(a)\n")
        repo.git(["add", "b.txt"])
        let second = repo.commit("submodule and key", all: false)
        let report = history(repo)
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(report.errors.count, 0)
        XCTAssertEqual(places(report.findings), ["\(second) b.txt:1"])
        XCTAssertTrue(report.run.stderr.contains("vendor/lib: submodule"), report.run.stderr)
    }

    func testShallowClone() {
        let source = GitFixture()
        source.write("a.txt", "k=\(a)\n")
        source.commit("one")
        source.write("b.txt", "x\nk=\(b)\n")
        source.commit("two")
        source.write("c.txt", "three\n")
        let tip = source.commit("three")
        let clone = GitFixture(initialize: false)
        let r = runProcess(GitFixture.gitPath, ["clone", "-q", "--depth", "1", "file://" + source.path, clone.path], env: clone.environment())
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = history(clone)
        XCTAssertEqual(places(report.findings), ["\(tip) a.txt:1", "\(tip) b.txt:2"])
        XCTAssertTrue(report.run.stderr.contains("shallow"), report.run.stderr)
        XCTAssertEqual(report.run.status, 1)
    }

    func testEmptyRepository() {
        let repo = GitFixture()
        let report = history(repo, ["--all-objects"])
        XCTAssertEqual(report.run.status, 0, report.run.stderr)
        XCTAssertEqual(report.findings.count, 0)
        XCTAssertEqual(report.errors.count, 0)
    }

    func testCorruptObjectIsAnErrorAndEarlierFindingsStay() {
        let repo = GitFixture()
        repo.write("good.txt", "first\nk=\(a)\n")
        let good = repo.commit("good")
        repo.write("bad.txt", "k=\(b)\n")
        repo.commit("bad")
        let blob = repo.rev("HEAD:bad.txt")
        let object = repo.path + "/.git/objects/" + blob.prefix(2) + "/" + blob.dropFirst(2)
        chmod(object, 0o644)
        try! Data("this is not zlib data at all".utf8).write(to: URL(fileURLWithPath: object))
        let report = history(repo)
        XCTAssertEqual(report.run.status, 2)
        XCTAssertEqual(places(report.findings), ["\(good) good.txt:2"])
        XCTAssertTrue(report.errors.contains { ($0["message"] ?? "").contains(blob) && ($0["message"] ?? "").contains("corrupt") }, "\(report.errors)")
        XCTAssertTrue(report.errors.contains { ($0["path"] ?? "").contains("bad.txt") }, "\(report.errors)")
    }

    func testRangeAndSince() {
        let repo = GitFixture()
        repo.write("a.txt", "k=\(a)\n")
        let one = repo.commit("one")
        repo.write("b.txt", "k=\(b)\n")
        let two = repo.commit("two")
        repo.write("c.txt", "x\nk=\(c)\n")
        let three = repo.commit("three")
        XCTAssertEqual(places(history(repo, ["--since", one]).findings), ["\(two) b.txt:1", "\(three) c.txt:2"].sorted())
        XCTAssertEqual(places(history(repo, ["--range", "\(two)..\(three)"]).findings), ["\(three) c.txt:2"])
        // Several ranges combine as rev-list does: reachable from any B, from no A.
        XCTAssertEqual(places(history(repo, ["--range", "\(one)..\(two)", "--range", "\(one)..main"]).findings),
                       ["\(two) b.txt:1", "\(three) c.txt:2"].sorted())
        XCTAssertEqual(places(history(repo, ["--range", one]).findings), ["\(one) a.txt:1"])
        let bad = keyshape(["history", repo.path, "--since", "no-such-rev"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--since no-such-rev: not a commit"), bad.stderr)
        XCTAssertEqual(keyshape(["history", repo.path, "--since", "--all"]).status, 2)
        XCTAssertEqual(keyshape(["history", repo.path, "--all-objects", "--since", one]).status, 2)
    }

    func testGitMissingAndNotARepository() {
        let repo = GitFixture()
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/nonexistent"
        for command in ["history", "staged"] {
            let noGit = keyshape([command, repo.path], env: env)
            XCTAssertEqual(noGit.status, 2)
            XCTAssertTrue(noGit.stderr.contains("git not found in PATH"), noGit.stderr)
            let plain = TempDir()
            let notRepo = keyshape([command, plain.path])
            XCTAssertEqual(notRepo.status, 2)
            XCTAssertTrue(notRepo.stderr.contains("not a git repository"), notRepo.stderr)
            let missing = keyshape([command, plain.path + "/nope"])
            XCTAssertEqual(missing.status, 2)
            XCTAssertTrue(missing.stderr.contains("not a git repository (no such folder)"), missing.stderr)
        }
    }

    /// keyshape's choice for git's safe.directory check: a repository owned by another user
    /// is scanned (its configuration cannot run anything under keyshape's isolation), while
    /// `hook install`, which writes into it, keeps git's check and says how to allow it.
    func testRepositoryOwnedByAnotherUser() throws {
        try XCTSkipUnless(getuid() == 0, "needs root to give the fixture to another user")
        let repo = GitFixture()
        repo.write("k.txt", "k=\(a)\n")
        let added = repo.commit("key")
        repo.write("k.txt", "k=\(a)\nnew=\(b)\n")
        repo.git(["add", "k.txt"])
        XCTAssertEqual(runProcess("/bin/chown", ["-R", "nobody", repo.path]).status, 0)
        let plain = runProcess(GitFixture.gitPath, ["-C", repo.path, "log"], env: repo.environment())
        XCTAssertNotEqual(plain.status, 0, "git itself refuses the repository")
        XCTAssertTrue(plain.stderr.contains("dubious ownership"))
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(added) k.txt:1"])
        XCTAssertEqual(report.run.status, 1)
        let staged = keyshapeJSON(["staged", repo.path], secrets: secrets)
        XCTAssertEqual(staged.findings.map { "\($0.path ?? ""):\($0.line ?? 0)" }, ["k.txt:2"])
        let hook = keyshape(["hook", "install", repo.path])
        XCTAssertEqual(hook.status, 2)
        XCTAssertTrue(hook.stderr.contains("safe.directory"), hook.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/pre-commit"))
    }

    func testSameBlobScannedOnceAcrossCommits() {
        let repo = GitFixture()
        repo.write("a.txt", "k=\(a)\n")
        let one = repo.commit("one")
        for i in 0..<5 { repo.write("n\(i).txt", "\(i)\n"); repo.commit("n\(i)") }
        repo.write("copy.txt", "k=\(a)\n")  // the same blob at a new path: new there
        let copy = repo.commit("copy")
        let report = history(repo, ["--jobs", "3"])
        XCTAssertEqual(places(report.findings), ["\(one) a.txt:1", "\(copy) copy.txt:1"].sorted())
        XCTAssertTrue(report.run.stderr.contains("7 commits, 6 blobs"), "copy.txt is a.txt's blob: scanned once; \(report.run.stderr)")
    }

    /// Blobs travel from git to the scanners packed into parcels of a few MiB: a blob larger
    /// than a parcel, many small ones spread over several parcels, and one over the size
    /// limit in between must all come out right, each at its own commit.
    func testLargeAndManyBlobsKeepTheirPlaces() {
        let repo = GitFixture()
        var big = String(repeating: String(repeating: "x", count: 99) + "\n", count: 60_000)  // 6 MB, over a parcel
        big += "k=\(a)\n"
        repo.write("big.txt", big)
        let bigCommit = repo.commit("big")
        repo.write("huge.txt", String(repeating: "y", count: 9_000_000) + "\nk=\(c)\n")
        let hugeCommit = repo.commit("huge")
        for i in 0..<40 { repo.write("small\(i).txt", String(repeating: "z\(i)\n", count: 30_000)) }
        repo.write("small40.txt", "k=\(b)\n")
        let smallCommit = repo.commit("small")
        let report = history(repo, ["--max-file-size", "8000000"])
        XCTAssertEqual(places(report.findings), ["\(bigCommit) big.txt:60001", "\(smallCommit) small40.txt:1"].sorted())
        XCTAssertEqual(report.run.status, 2, "huge.txt is over the limit: an error entry")
        XCTAssertTrue(report.run.stdout.contains("over the 8000000-byte limit"), report.run.stdout)
        XCTAssertTrue(report.run.stdout.contains(hugeCommit), "the error names the commit")
    }
}
