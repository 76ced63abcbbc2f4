import Foundation
import XCTest
import TestSupport

/// A repository received as a tarball can carry a FIFO where git opens a file; git's `open`
/// then waits forever for a writer, and git runs with no timeout of its own. Every command
/// that runs git ends in bounded time with exit 2 and an error entry: a special file at a
/// place git is known to read is refused before git starts, and any other git child that
/// keyshape waits for without output or CPU time is killed by the watchdog
/// (`KEYSHAPE_GIT_STALL_SECONDS`, set low here).
final class GitSpecialFileTests: XCTestCase {
    let key = canary("Fq7Zx83Wv")

    /// A repository with one commit holding a key, a staged change, and packed refs.
    func repository() -> GitFixture {
        let repo = GitFixture()
        repo.write("sub/app.env", "TOKEN=\(key)\n")
        repo.write("README.md", "readme\n")
        repo.commit("first")
        repo.git(["pack-refs", "--all"])
        repo.write("staged.txt", "staged\n")
        repo.git(["add", "staged.txt"])
        return repo
    }

    /// Replaces `relative` (in the work tree) with a FIFO.
    func plantFIFO(_ repo: GitFixture, _ relative: String) {
        let path = repo.path + "/" + relative
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        unlink(path)
        XCTAssertEqual(mkfifo(path, 0o644), 0, relative)
    }

    /// Runs `command` on `repo`, bounded well below the test's own guard.
    func run(_ command: String, _ repo: GitFixture, stall: String = "2") -> (run: Run, seconds: TimeInterval) {
        let started = Date()
        let r = runProcess(Binary.url.path, [command, repo.path, "--no-progress", "--format", "json"],
                           env: ProcessInfo.processInfo.environment.merging(["KEYSHAPE_GIT_STALL_SECONDS": stall]) { $1 }, timeout: 60)
        return (r, Date().timeIntervalSince(started))
    }

    func errorMessages(_ r: Run) -> [String] {
        guard let object = r.report,
              let errors = object["errors"] as? [[String: Any]] else { return [] }
        return errors.compactMap { $0["message"] as? String }
    }

    /// The places the issue names: each, under history, staged and audit, is refused before
    /// git runs, naming the file.
    func testFIFOsWhereGitReadsAreRefusedByEveryGitCommand() throws {
        let places = [".git/HEAD", ".git/config", ".git/index", ".git/packed-refs", ".git/info/exclude",
                      ".git/objects/info/alternates", ".gitignore"]
        for place in places {
            let repo = repository()
            plantFIFO(repo, place)
            for command in ["history", "staged", "audit"] {
                let (r, seconds) = run(command, repo, stall: "600")
                XCTAssertEqual(r.status, 2, "\(place) \(command): \(r.stderr)")
                XCTAssertLessThan(seconds, 30, "\(place) \(command)")
                let said = r.stderr + errorMessages(r).joined(separator: "\n")
                XCTAssertTrue(said.contains(place + ": cannot read the repository (a FIFO, socket or device where git reads a file"),
                              "\(place) \(command): \(said)")
                assertNoFragment(of: key, in: r.stdout + r.stderr, "\(place) \(command)")
            }
        }
    }

    /// A loose object that is a FIFO is not a place checked beforehand: `git cat-file`
    /// blocks on it, the watchdog ends it, and the blob is an error entry.
    func testFIFOAsALooseObjectIsStoppedByTheWatchdog() throws {
        let repo = repository()
        let blob = repo.git(["rev-parse", "HEAD:README.md"])
        plantFIFO(repo, ".git/objects/" + blob.prefix(2) + "/" + blob.dropFirst(2))
        for command in ["history", "audit"] {
            let (r, seconds) = run(command, repo)
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertLessThan(seconds, 30, command)
            XCTAssertTrue(errorMessages(r).contains { $0.contains("git made no progress for 2 s") }, "\(command): \(r.stdout)")
        }
    }

    /// A `.gitignore` in a subfolder: `git ls-files --exclude-standard` (audit's list of the
    /// work tree) blocks on it; the watchdog ends it, and the folder is scanned instead.
    func testFIFOAsANestedGitignoreIsStoppedByTheWatchdog() throws {
        let repo = repository()
        plantFIFO(repo, "sub/.gitignore")
        let (r, seconds) = run("audit", repo)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertLessThan(seconds, 30)
        XCTAssertTrue(errorMessages(r).contains { $0.contains("git ls-files failed") && $0.contains("no progress") }, r.stdout)
        assertNoFragment(of: key, in: r.stdout + r.stderr, "audit")
    }
}
