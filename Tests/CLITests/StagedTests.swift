import Foundation
import XCTest
import TestSupport

/// `keyshape staged`: only what the next commit adds, at its line in the staged version.
final class StagedTests: XCTestCase {
    let a = canary("AlphaStaged1"), b = canary("BravoStaged2"), c = canary("CharlieStage3")
    var secrets: [String] { [a, b, c] }

    func staged(_ repo: GitFixture, _ extra: [String] = [], env: [String: String]? = nil, file: StaticString = #filePath, line: UInt = #line) -> ParsedReport {
        keyshapeJSON(["staged", repo.path] + extra, secrets: secrets, env: env, file: file, line: line)
    }

    func lines(_ r: ParsedReport) -> [String] { r.findings.map { "\($0.kind) \($0.path ?? ""):\($0.line.map(String.init) ?? "-")" }.sorted() }

    func testOnlyAddedLinesWithStagedLineNumbers() {
        let repo = GitFixture()
        repo.write("app.env", "name=x\nold=\(a)\n")
        repo.commit("existing key")
        XCTAssertEqual(staged(repo).run.status, 0, "nothing staged")
        repo.write("app.env", "new=\(b)\nname=x\nold=\(a)\n")
        repo.write("unstaged.txt", "u=\(c)\n")  // not staged: not reported
        repo.git(["add", "app.env"])
        let r = staged(repo)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(lines(r), ["staged app.env:1"])
        XCTAssertEqual(r.findings.first?.column, 5)
        // Deleting the old key's line adds nothing.
        repo.write("app.env", "name=x\n")
        repo.git(["add", "app.env"])
        XCTAssertEqual(staged(repo).findings.count, 0)
        let text = keyshape(["staged", repo.path, "--no-progress"], cwd: nil)
        XCTAssertEqual(text.status, 0)
    }

    func testBeforeTheFirstCommitAndFromInsideTheRepository() {
        let repo = GitFixture()
        repo.write("src/k.swift", "let x = 1\nlet k = \"\(a)\"\n")
        repo.git(["add", "-A"])
        let r = staged(repo)
        XCTAssertEqual(lines(r), ["staged src/k.swift:2"])
        let fromInside = keyshape(["staged", "--no-progress"], cwd: repo.path + "/src")
        XCTAssertEqual(fromInside.status, 1)
        XCTAssertTrue(fromInside.stdout.contains("src/k.swift:2:10: keyshape-canary"), fromInside.stdout)
    }

    func testRenamesAndBinaryFiles() {
        let repo = GitFixture()
        repo.write("old.cfg", "1\n2\nk=\(a)\n4\n5\n6\n")
        var bin: [UInt8] = [0, 1, 2, 3] + Array(b.utf8) + [0]
        repo.writeBytes(Array("data.bin".utf8), bin)
        repo.commit("base")
        repo.git(["mv", "old.cfg", "new.cfg"])
        XCTAssertEqual(staged(repo).findings.count, 0, "a rename adds no line")
        repo.write("new.cfg", "1\n2\nk=\(a)\n4\n5\n6\nnew=\(c)\n")
        bin += [9, 9]  // the binary changes but keeps only the old key
        repo.writeBytes(Array("data.bin".utf8), bin)
        repo.git(["add", "-A"])
        XCTAssertEqual(lines(staged(repo)), ["staged new.cfg:7"])
        bin += Array(a.utf8) + [0]  // a new key in the binary
        repo.writeBytes(Array("data.bin".utf8), bin)
        repo.git(["add", "-A"])
        let r = staged(repo)
        XCTAssertEqual(lines(r), ["staged data.bin:-", "staged new.cfg:7"])
        XCTAssertEqual(r.findings.first { $0.path == "data.bin" }?.byteOffset, 4 + b.utf8.count + 1 + 2)
    }

    func testHonoursTheIndexFileGitNamesForHooks() {
        let repo = GitFixture()
        repo.write("a.txt", "clean\n")
        repo.commit("base")
        repo.write("a.txt", "clean\nk=\(a)\n")
        // `git commit -a` stages into a temporary index and names it in GIT_INDEX_FILE.
        let tempIndex = repo.dir.path + "/other-index"
        try! FileManager.default.copyItem(atPath: repo.path + "/.git/index", toPath: tempIndex)
        repo.git(["add", "a.txt"], env: ["GIT_INDEX_FILE": tempIndex])
        XCTAssertEqual(staged(repo).findings.count, 0, "the real index has nothing staged")
        var env = ProcessInfo.processInfo.environment
        env["GIT_INDEX_FILE"] = tempIndex
        XCTAssertEqual(lines(staged(repo, env: env)), ["staged a.txt:2"])
    }

    /// A pre-commit hook pays for every git it starts (about 2 ms of CPU each): a staged scan
    /// runs three, the repository probe, one `diff --cached` giving paths and added lines
    /// together, and one `cat-file --batch` (it ran five: HEAD and the raw diff apart). The
    /// findings stay the same, before the first commit and after.
    func testRunsThreeGitProcesses() throws {
        let tools = TempDir()
        let log = tools.path + "/git.log"
        // Logs each invocation's arguments on one line, in one write (the gits run at once:
        // a line written in two parts could take another's between them, which made the test
        // fail now and then), then runs the real git.
        tools.write("git", "#!/bin/sh\nline=\"$*\"\nprintf '%s\\n' \"$line\" >> '\(log)'\nexec '\(GitFixture.gitPath)' \"$@\"\n")
        XCTAssertEqual(chmod(tools.path + "/git", 0o755), 0)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = tools.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        // The subcommand of each logged invocation: the first word past git's own options.
        func subcommands() -> [String] {
            let lines = tools.read("git.log").split(separator: "\n")
            try? FileManager.default.removeItem(atPath: log)
            return lines.map { line in
                var words = line.split(separator: " ").map(String.init)[...]
                while let w = words.first, w == "--no-pager" || w == "-C" || w == "-c" {
                    words = words.dropFirst(w == "--no-pager" ? 1 : 2)
                }
                return words.first ?? ""
            }.sorted()
        }
        let repo = GitFixture()
        repo.write("first.env", "1\n2\n3\n4\n5\nk=\(a)\n")
        repo.git(["add", "first.env"])
        XCTAssertEqual(lines(staged(repo, env: env)), ["staged first.env:6"], "before the first commit")
        XCTAssertEqual(subcommands(), ["cat-file", "diff", "rev-parse"])
        _ = repo.commit("first")
        repo.write("first.env", "1\n2\n3\n4\n5\nk=\(a)\nl=\(b)\n")
        repo.git(["mv", "first.env", "moved.env"])
        repo.git(["add", "-A"])
        XCTAssertEqual(lines(staged(repo, env: env)), ["staged moved.env:7"], "against HEAD, the rename followed")
        XCTAssertEqual(subcommands(), ["cat-file", "diff", "rev-parse"])
    }
}
