import Datastore
import Foundation
import XCTest
import TestSupport

/// `keyshape sweep`: many repositories into one datastore, resumable after `kill -9`.
final class SweepTests: XCTestCase {
    func sortedLines(_ text: String) -> [String] { sortedReportLines(text) }

    /// Starts keyshape in a process group of its own, so a kill reaches its children too (as
    /// a cancelled CI job or a closed terminal does).
    func spawnGroup(_ args: [String]) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv = ([CLI.binary.path] + args).map { strdup($0) } + [nil]
        let envp = CLI.environment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, CLI.binary.path, &actions, &attributes, argv, envp)
        XCTAssertEqual(rc, 0)
        for p in argv + envp { free(p) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        return pid
    }

    func testAKilledSweepResumesToTheSameFindingsAndThenSkipsWhatIsDone() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let names = ["one", "two", "three", "four"]
        for (n, name) in names.enumerated() { _ = HistoryFixture(in: scratch, name: name, commits: 8 + 4 * n, perCommit: 3) }
        scratch.write("repos.txt", "# the engagement's repositories\n" + names.map { scratch.path + "/" + $0 }.joined(separator: "\n") + "\n\n")
        let sweep = ["sweep", "--repos", scratch.path + "/repos.txt", "--rules", rules, "--no-builtin-rules", "--jobs", "2"]

        let reference = scratch.path + "/reference.db"
        let started = Date()
        let whole = CLI.keyshape(sweep + ["--datastore", reference])
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(whole.status, 1, whole.stderr)
        for name in names { XCTAssertTrue(whole.stderr.contains("/\(name): "), whole.stderr) }
        let expected = sortedLines(CLI.keyshape(["report", "--datastore", reference, "--format", "jsonl"]).stdout)
        // Each secret twice: in the commit that added it, and in the sources at HEAD.
        XCTAssertEqual(expected.count, (8 + 12 + 16 + 20) * 3 * 2)
        XCTAssertEqual(expected.filter { $0.contains("\"kind\":\"file\"") }.count, (8 + 12 + 16 + 20) * 3, "the sources were scanned")

        let db = scratch.path + "/killed.db"
        for fraction in [0.25, 0.5, 0.8] {
            let pid = spawnGroup(sweep + ["--datastore", db])
            Thread.sleep(forTimeInterval: duration * fraction)
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            // Its children die with the group; wait until none is left writing.
            Thread.sleep(forTimeInterval: 0.3)
            if FileManager.default.fileExists(atPath: db) {
                XCTAssertTrue(try Datastore(path: db, create: false).integrityCheck(), "after a kill at \(fraction)")
            }
        }
        let resumed = CLI.keyshape(sweep + ["--datastore", db])
        XCTAssertEqual(resumed.status, 1, resumed.stderr)
        let after = sortedLines(CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"]).stdout)
        XCTAssertEqual(after.count, expected.count, "no duplicate, no lost finding")
        XCTAssertEqual(after, expected)
        XCTAssertTrue(try Datastore(path: db, create: false).integrityCheck())

        // Everything is done: the next sweep skips every repository.
        let again = CLI.keyshape(sweep + ["--datastore", db])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("0 swept, 4 unchanged (skipped), 0 failed"), again.stderr)
    }

    func testARepositoryThatCannotBeSweptIsAnErrorAndTheOthersAreStillSwept() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let good = HistoryFixture(in: scratch, name: "good", commits: 3, perCommit: 1)
        scratch.write("plain/readme.txt", "not a repository\n")
        let db = scratch.path + "/d.db"
        let r = CLI.keyshape(["sweep", "--datastore", db, scratch.path + "/plain", good.path, "--rules", scratch.path + "/rules.toml", "--no-builtin-rules"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("plain: not swept completely"), r.stderr)
        XCTAssertTrue(r.stderr.contains("good: 3 findings, 3 in the sources at HEAD"), r.stderr)
        XCTAssertTrue(r.stderr.contains("1 swept, 0 unchanged (skipped), 1 failed"), r.stderr)
    }
}
