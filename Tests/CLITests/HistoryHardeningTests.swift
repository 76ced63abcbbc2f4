import Foundation
import XCTest
import TestSupport

/// Hostile repositories built at run time, each trying one way to make keyshape run a
/// program, fetch, hide a commit, quote planted text, skip what it was asked to scan, or
/// exit 0 on what it could not read.
final class HistoryHardeningTests: XCTestCase {
    let key = canary("HardenedGit41"), planted = canary("PlantedInGit52")
    var secrets: [String] { [key, planted] }

    /// A script that creates `markers/NAME` when run as `script NAME`.
    func markerScript(_ dir: TempDir) throws -> (script: String, markers: String) {
        let markers = dir.path + "/markers"
        try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)
        let script = dir.path + "/evil.sh"
        try Data("#!/bin/sh\ntouch \"\(markers)/$1\"\n".utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        return (script, markers)
    }

    func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    func assertNothingLeaked(_ r: Run, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for s in secrets { assertNoFragment(of: s, in: r.stdout + r.stderr, what, file: file, line: line) }
    }

    // MARK: 1. Nothing the repository configures runs

    /// `diff.submodule=diff` makes `git diff` start a child `git diff` inside the submodule,
    /// which reads the submodule's own config and attributes (a diff driver's command).
    func testStagedSubmoduleDiffRunsNoDriver() throws {
        let work = TempDir()
        let (script, markers) = try markerScript(work)
        let sub = GitFixture(name: "subsrc")
        sub.write("f.txt", "one\n")
        sub.commit("one")
        let repo = GitFixture()
        repo.git(["-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.path, "sub"])
        repo.commit("add submodule")
        func subGit(_ args: [String]) {
            let r = runProcess(GitFixture.gitPath, ["-C", repo.path + "/sub", "-c", "user.name=A", "-c", "user.email=a@example.com"] + args,
                               env: repo.environment())
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        try Data("two\n".utf8).write(to: URL(fileURLWithPath: repo.path + "/sub/f.txt"))
        try Data("* diff=evil\n".utf8).write(to: URL(fileURLWithPath: repo.path + "/sub/.gitattributes"))
        subGit(["add", "-A"])
        subGit(["commit", "-q", "-m", "two"])
        subGit(["config", "diff.evil.command", "\(script) submodule-diff-driver"])
        repo.git(["config", "diff.submodule", "diff"])
        repo.write("app.env", "k=\(key)\n")
        repo.git(["add", "-A"])

        // Control: plain git runs the driver.
        _ = runProcess(GitFixture.gitPath, ["-C", repo.path, "diff", "--cached"], env: repo.environment())
        XCTAssertEqual(contents(markers), ["submodule-diff-driver"], "the hostile configuration is live for plain git")
        try FileManager.default.removeItem(atPath: markers + "/submodule-diff-driver")

        let r = keyshape(["staged", repo.path, "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("app.env:1:3: keyshape-canary"), r.stdout)
        assertNothingLeaked(r, "staged")
        XCTAssertEqual(contents(markers), [], "no configured program ran")
    }

    /// A partial clone whose promisor remote is a command (`ext::`, allowed by the
    /// repository's own `protocol.ext.allow=always`), with blobs missing so git would want
    /// to fetch them: nothing runs, and each missing blob is an error entry (exit 2).
    func testPromisorRemoteIsNeverFetched() throws {
        let work = TempDir()
        let (script, markers) = try markerScript(work)
        let repo = GitFixture()
        repo.write("k.txt", "k=\(key)\n")
        repo.commit("key")
        let committed = repo.git(["rev-parse", "HEAD:k.txt"])
        repo.write("s.txt", "s=\(key)\n")
        repo.git(["add", "s.txt"])
        let staged = repo.git(["rev-parse", ":s.txt"])
        for blob in [committed, staged] {
            try FileManager.default.removeItem(atPath: repo.path + "/.git/objects/" + blob.prefix(2) + "/" + blob.dropFirst(2))
        }
        for (k, v) in [("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.promisor", "true"), ("remote.origin.url", "ext::\(script) lazy-fetch"),
                       ("protocol.ext.allow", "always")] {
            repo.git(["config", k, v])
        }

        // Control: plain git fetches the missing blob through the command.
        _ = runProcess(GitFixture.gitPath, ["-C", repo.path, "cat-file", "-p", committed], env: repo.environment())
        XCTAssertEqual(contents(markers), ["lazy-fetch"], "the promisor remote is live for plain git")
        try FileManager.default.removeItem(atPath: markers + "/lazy-fetch")

        let h = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(h.run.status, 2, h.run.stderr)
        XCTAssertTrue(h.errors.contains { ($0["path"] ?? "").contains("k.txt") && ($0["message"] ?? "").contains(committed) }, "\(h.errors)")
        let s = keyshapeJSON(["staged", repo.path], secrets: secrets)
        XCTAssertEqual(s.run.status, 2, s.run.stderr)
        XCTAssertTrue(s.errors.contains { $0["path"] == "s.txt" }, "\(s.errors)")
        XCTAssertEqual(contents(markers), [], "no promisor fetch ran")
    }

    // MARK: 2. A repository that cannot be read is an error, never "skipped"

    /// The three ways a repository that is there cannot be read, for history, staged and
    /// audit: exit 2 with an error, and no repository content quoted.
    func testUnreadableRepositoryIsAnError() throws {
        let noGit = TempDir()  // a PATH with no git in it
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = noGit.path
        func brokenConfig() -> GitFixture {
            let repo = GitFixture()
            repo.write("app.env", "k=\(key)\n")
            repo.commit("key")
            let config = repo.path + "/.git/config"
            let handle = FileHandle(forWritingAtPath: config)!
            handle.seekToEndOfFile()
            handle.write(Data("[core\n\tbroken = \(planted)\n".utf8))
            handle.closeFile()
            return repo
        }
        func wrongGitdir() -> GitFixture {
            let repo = GitFixture(initialize: false)
            try! Data("gitdir: /nonexistent/\(planted)\n".utf8).write(to: URL(fileURLWithPath: repo.path + "/.git"))
            repo.write("app.env", "k=\(key)\n")
            return repo
        }
        func plain() -> GitFixture {
            let repo = GitFixture()
            repo.write("app.env", "k=\(key)\n")
            repo.commit("key")
            repo.write("more.env", "m=\(key)\n")
            repo.git(["add", "-A"])
            return repo
        }
        let cases: [(String, GitFixture, [String: String]?)] = [
            ("git missing from PATH", plain(), env),
            ("a config git cannot parse", brokenConfig(), nil),
            ("a .git file naming a missing folder", wrongGitdir(), nil),
        ]
        for (what, repo, environment) in cases {
            for command in ["history", "staged"] {
                let r = keyshape([command, repo.path, "--no-progress"], env: environment)
                XCTAssertEqual(r.status, 2, "\(command), \(what): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("keyshape: error: "), "\(command), \(what): \(r.stderr)")
                assertNothingLeaked(r, "\(command), \(what)")
            }
            let audit = keyshapeJSON(["audit", repo.path], secrets: secrets, env: environment)
            XCTAssertEqual(audit.run.status, 2, "audit, \(what): \(audit.run.stderr)")
            XCTAssertFalse(audit.run.stderr.contains("skipped"), "audit, \(what): \(audit.run.stderr)")
            XCTAssertTrue(audit.errors.contains { ($0["message"] ?? "").hasPrefix("history not scanned: ") }, "audit, \(what): \(audit.errors)")
            // The sources are still scanned (and their finding reported).
            XCTAssertTrue(audit.findings.contains { $0.path == "app.env" }, "audit, \(what): \(audit.findings.map(\.path))")
        }
    }

    /// A folder with no repository in or above it has no history: audit says so and its
    /// status is the sources' (nothing it was asked to scan went unscanned), with or without git.
    func testAuditOfAFolderWithoutRepository() throws {
        let dir = TempDir()
        dir.write("clean/readme.txt", "nothing here\n")
        let noGit = TempDir()
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = noGit.path
        for environment in [nil, env] {
            let r = keyshape(["audit", dir.path + "/clean", "--no-progress"], env: environment)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("history: none (no git repository in or above this folder)"), r.stderr)
        }
    }

    // MARK: 3. History as the objects say

    /// A repository whose last commit removed a key another commit added, with no reflog to
    /// find that commit by: `info/grafts` or a planted `shallow` entry cutting the removal
    /// commit off from its parent hides the addition.
    func hiddenKeyRepository() -> (repo: GitFixture, added: String, tip: String) {
        let repo = GitFixture()
        repo.write("readme.txt", "hello\n")
        repo.commit("one")
        repo.write("app.env", "k=\(key)\n")
        let added = repo.commit("add key")
        repo.remove("app.env")
        let tip = repo.commit("remove key")
        try? FileManager.default.removeItem(atPath: repo.path + "/.git/logs")
        return (repo, added, tip)
    }

    func testGraftsDoNotHideCommits() throws {
        let (repo, added, tip) = hiddenKeyRepository()
        try Data("\(tip)\n".utf8).write(to: URL(fileURLWithPath: repo.path + "/.git/info/grafts"))
        XCTAssertEqual(repo.git(["rev-list", "--all"]), tip, "plain git follows the graft")
        let r = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(places(r.findings), ["\(added) app.env:1"])
    }

    func testForgedShallowEntryIsIgnored() throws {
        let (repo, added, tip) = hiddenKeyRepository()
        try Data("\(tip)\n".utf8).write(to: URL(fileURLWithPath: repo.path + "/.git/shallow"))
        XCTAssertEqual(repo.git(["rev-list", "--all"]), tip, "plain git stops at the shallow entry")
        let r = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(places(r.findings), ["\(added) app.env:1"])
        XCTAssertTrue(r.run.stderr.contains("shallow file lists 1 commit whose parents are present"), r.run.stderr)
        XCTAssertFalse(r.run.stderr.contains("shallow repository:"), r.run.stderr)
    }

    /// A FIFO as the shallow file would block git's read of it forever: keyshape reads the
    /// file itself, without blocking, and refuses it.
    func testShallowFileThatIsAFIFOIsAnErrorNotAHang() throws {
        let (repo, _, _) = hiddenKeyRepository()
        XCTAssertEqual(mkfifo(repo.path + "/.git/shallow", 0o644), 0)
        let started = Date()
        let r = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("its shallow file is not a regular file"), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    /// A commit-graph file whose entry for the removal commit says it has no parent.
    func testForgedCommitGraphDoesNotHideCommits() throws {
        let (repo, added, tip) = hiddenKeyRepository()
        repo.git(["commit-graph", "write", "--reachable"])
        let graph = repo.path + "/.git/objects/info/commit-graph"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: graph)))
        // Header (8 bytes: signature, version, hash version, chunk count, base graphs), then
        // the chunk table: 12 bytes per chunk (id, 8-byte offset), OIDL the sorted commit
        // names, CDAT per commit the tree name and two 4-byte parent positions.
        func offset(_ id: String) -> Int? {
            for i in 0..<Int(bytes[6]) {
                let at = 8 + 12 * i
                if Array(bytes[at..<at + 4]) == Array(id.utf8) {
                    return bytes[at + 4..<at + 12].reduce(0) { $0 << 8 | Int($1) }
                }
            }
            return nil
        }
        let oidl = try XCTUnwrap(offset("OIDL")), cdat = try XCTUnwrap(offset("CDAT"))
        let tipBytes = Array(try XCTUnwrap(Data(hexString: tip)))
        let index = try XCTUnwrap((0..<3).first { Array(bytes[oidl + 20 * $0..<oidl + 20 * $0 + 20]) == tipBytes })
        let parent = cdat + 36 * index + 20
        bytes.replaceSubrange(parent..<parent + 4, with: [0x70, 0, 0, 0])  // "no parent"
        chmod(graph, 0o644)
        try Data(bytes).write(to: URL(fileURLWithPath: graph))
        XCTAssertEqual(repo.git(["rev-list", "--all"]), tip, "plain git believes the graph")
        let r = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(places(r.findings), ["\(added) app.env:1"])
    }

    /// A real shallow clone (the boundary's parents are not in the object store) keeps its
    /// note and is scanned as it is; a forged entry beside the real one is still ignored.
    func testRealShallowCloneKeepsItsBoundary() throws {
        let (origin, added, tip) = hiddenKeyRepository()
        origin.write("later.env", "l=\(key)\n")
        let later = origin.commit("later key")
        let clone = GitFixture(name: "clone", initialize: false)
        let r0 = runProcess(GitFixture.gitPath, ["clone", "-q", "--depth", "2", "file://" + origin.path, clone.path], env: clone.environment())
        XCTAssertEqual(r0.status, 0, r0.stderr)
        XCTAssertEqual(clone.git(["rev-parse", "--is-shallow-repository"]), "true")
        let r = keyshapeJSON(["history", clone.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(places(r.findings), ["\(later) later.env:1"], "the boundary commit \(tip) has no key; \(added) is not in the clone")
        XCTAssertTrue(r.run.stderr.contains("shallow repository:"), r.run.stderr)
        XCTAssertFalse(r.run.stderr.contains("whose parents are present"), r.run.stderr)
    }

    // MARK: 4. git's messages are not quoted

    /// A ref named after a planted value that points at no object: git's error names the
    /// ref; keyshape's names the command and its status only.
    func testGitStderrIsNotQuoted() throws {
        let repo = GitFixture()
        repo.write("readme.txt", "hello\n")
        repo.commit("one")
        let missing = String(repeating: "5", count: 40)
        let ref = repo.path + "/.git/refs/heads/\(planted)"
        try Data("\(missing)\n".utf8).write(to: URL(fileURLWithPath: ref))
        let plain = runProcess(GitFixture.gitPath, ["-C", repo.path, "rev-list", "--all"], env: repo.environment())
        XCTAssertNotEqual(plain.status, 0)
        XCTAssertTrue(plain.stderr.contains(planted), "git itself quotes the ref: \(plain.stderr)")
        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertEqual(text.status, 2, text.stderr)
        XCTAssertTrue(text.stderr.contains("git rev-list failed (exit "), text.stderr)
        assertNothingLeaked(text, "history text")
        let r = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 2)
        XCTAssertFalse(r.errors.isEmpty)
        let audit = keyshapeJSON(["audit", repo.path], secrets: secrets)
        XCTAssertEqual(audit.run.status, 2)
    }

    // MARK: 5. Symlinks in the index

    func testStagedScansSymlinkTargets() throws {
        let repo = GitFixture()
        repo.write("readme.txt", "hello\n")
        repo.commit("one")
        XCTAssertEqual(symlink("k=\(key)", repo.path + "/link"), 0)
        repo.git(["add", "link"])
        XCTAssertEqual(repo.git(["ls-files", "-s", "link"]).prefix(6), "120000")
        let r = keyshapeJSON(["staged", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(r.findings.map { "\($0.kind) \($0.path ?? ""):\($0.line ?? 0)" }, ["staged link:1"])
        // history scans the same blob at the same path, with the same fingerprint.
        repo.commit("link")
        let h = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(h.findings.map(\.path), ["link"])
        XCTAssertEqual(h.findings.map(\.fingerprint), r.findings.map(\.fingerprint))
    }

    // MARK: 6. Large blobs in bounded pieces

    /// The repository's own config raises the size limit far past the chunk size: a blob of
    /// 20 MiB is scanned in 8 MiB chunks, with the keys before, inside and across the chunk
    /// boundaries each found once at its line.
    func testLargeBlobUnderARaisedLimitIsScannedInChunks() throws {
        let repo = GitFixture()
        repo.write(".keyshape.toml", "[scan]\nmaxFileSize = \"8GiB\"\n")
        var text = [UInt8]()
        var lines: [Int] = []
        var line = 1
        let filler = Array(String(repeating: "w", count: 119).utf8) + [0x0A]
        // 8 MiB chunks overlap by 64 KiB: the first boundary's overlap is 8 MiB - 64 KiB on.
        let around = [(8 << 20) - (64 << 10) - 40, (8 << 20) - (64 << 10) + 9, (8 << 20) - 30, (16 << 20) - (128 << 10) - 20, 20 << 20]
        var next = 0
        while text.count < (20 << 20) + 200 {
            if next < around.count && text.count >= around[next] {
                lines.append(line)
                text += Array("key=\(key)\n".utf8)
                next += 1
            } else {
                text += filler
            }
            line += 1
        }
        repo.writeBytes(Array("big.txt".utf8), text)
        repo.commit("big")
        let r = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(r.errors.count, 0, "\(r.errors)")
        XCTAssertEqual(r.findings.filter { $0.path == "big.txt" }.compactMap(\.line).sorted(), lines)
    }

    /// Two paths that differ only in bytes that are not UTF-8 are two places in `staged`
    /// and `history` too: shown with `\xNN` escapes, fingerprinted from the raw bytes, and
    /// with the fingerprints `scan` gives the same files.
    func testPathsDifferingOnlyInInvalidUTF8AreTwoPlaces() throws {
        let repo = GitFixture()
        repo.write("readme.txt", "hello\n")
        repo.commit("one")
        for byte: UInt8 in [0xFF, 0xFE] {
            let name = Array((repo.path + "/k").utf8) + [byte] + Array(".txt".utf8)
            let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let text = Array("k=\(key)\n".utf8)
            XCTAssertEqual(Glibc.write(fd, text, text.count), text.count)
            close(fd)
        }
        repo.git(["add", "-A"])
        let staged = keyshapeJSON(["staged", repo.path], secrets: secrets)
        XCTAssertEqual(staged.findings.map { $0.path ?? "" }.sorted(), ["k\\xfe.txt", "k\\xff.txt"], staged.run.stderr)
        XCTAssertEqual(Set(staged.findings.map(\.fingerprint)).count, 2)
        repo.commit("two")
        let history = keyshapeJSON(["history", repo.path], secrets: secrets)
        XCTAssertEqual(history.findings.map { $0.path ?? "" }.sorted(), ["k\\xfe.txt", "k\\xff.txt"], history.run.stderr)
        XCTAssertEqual(Set(history.findings.map(\.fingerprint)), Set(staged.findings.map(\.fingerprint)))
        let scan = keyshapeJSON(["scan", repo.path], secrets: secrets)
        XCTAssertEqual(Set(scan.findings.map(\.fingerprint)), Set(history.findings.map(\.fingerprint)),
                       "a baseline written by scan applies to history")
    }
}

private extension Data {
    init?(hexString: String) {
        var out = [UInt8]()
        var chars = Array(hexString.utf8)[...]
        while chars.count >= 2 {
            guard let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
            chars = chars.dropFirst(2)
        }
        guard chars.isEmpty else { return nil }
        self.init(out)
    }

}
