import Datastore
import Foundation
import XCTest
import TestSupport

/// The per-blob cache: `history --datastore` reads from git only blobs no earlier run scanned
/// with the same rules, reports what a fresh full run reports, and keeps a killed run's work.
final class BlobCacheTests: XCTestCase {
    func runs(_ db: String) throws -> [RunInfo] { try Datastore(readingAt: db).runs() }

    func sortedLines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).sorted() }

    /// A history rewritten under the datastore (the last run's tips gone, so every commit is
    /// walked again): only the blobs the new commits add are read; the report is a fresh run's.
    func testAFullWalkAfterARewriteReadsOnlyBlobsNoRunScanned() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let repo = HistoryFixture(in: scratch, commits: 20, perCommit: 2)
        let db = scratch.path + "/d.db"
        let args = ["history", repo.path, "--rules", rules, "--no-builtin-rules", "--no-progress", "--format", "jsonl"]
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", db]).status, 1)
        XCTAssertEqual(try runs(db).last?.blobs, 20)
        XCTAssertEqual(try Datastore(readingAt: db).blobScanCount(), 20)

        // Drop the last two commits for good, then three new ones on top.
        CLI.git(repo.path, ["reset", "-q", "--hard", "main~2"])
        CLI.git(repo.path, ["reflog", "expire", "--expire=now", "--all"])
        CLI.git(repo.path, ["gc", "-q", "--prune=now"])
        _ = HistoryFixture.append(to: repo.path, commits: 3, perCommit: 1, from: 40)

        let second = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("no longer on any ref"), second.stderr)
        XCTAssertTrue(second.stderr.contains("18 blobs"), "a note says how many blobs the cache gave: \(second.stderr)")
        let last = try XCTUnwrap(try runs(db).last)
        XCTAssertEqual(last.commits, 21, "every commit walked")
        XCTAssertEqual(last.blobs, 3, "only the three new blobs read from git")
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(fresh.stdout).count, 18 * 2 + 3)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(fresh.stdout), "the report is a fresh full run's")
    }

    /// Another rule set is another set of records: every blob is scanned again with it (and a
    /// rule it adds finds what is in old blobs), while the first set's records stay valid for
    /// runs with the first rules.
    func testARulePackChangeRescansAndEachRuleSetKeepsItsOwnRecords() throws {
        let scratch = TempDir()
        let twin = TestSecrets.rule.replacingOccurrences(of: "datastore-test-token", with: "datastore-test-twin")
        scratch.write("one.toml", TestSecrets.rule)
        scratch.write("two.toml", TestSecrets.rule + "\n" + twin)
        let repo = HistoryFixture(in: scratch, commits: 12, perCommit: 1)
        let db = scratch.path + "/d.db"
        func args(_ rules: String) -> [String] {
            ["history", repo.path, "--rules", scratch.path + "/" + rules, "--no-builtin-rules", "--no-progress", "--format", "jsonl"]
        }
        XCTAssertEqual(sortedLines(CLI.keyshape(args("one.toml") + ["--datastore", db]).stdout).count, 12)
        XCTAssertEqual(try runs(db).last?.blobs, 12)

        let two = CLI.keyshape(args("two.toml") + ["--datastore", db])
        XCTAssertTrue(two.stderr.contains("the rules changed"), two.stderr)
        XCTAssertEqual(try runs(db).last?.blobs, 12, "another rule set: every blob read and scanned again")
        XCTAssertEqual(sortedLines(two.stdout).count, 24, "the added rule finds the old blobs' secrets")
        XCTAssertEqual(sortedLines(two.stdout), sortedLines(CLI.keyshape(args("two.toml")).stdout))

        let back = CLI.keyshape(args("one.toml") + ["--datastore", db])
        XCTAssertEqual(try runs(db).last?.commits, 12, "the rules changed again: every commit walked")
        XCTAssertEqual(try runs(db).last?.blobs, 0, "the first rule set's records still hold: no blob read")
        XCTAssertEqual(sortedLines(back.stdout), sortedLines(CLI.keyshape(args("one.toml")).stdout))
        XCTAssertEqual(try Datastore(readingAt: db).blobScanCount(), 24, "one record per blob and rule set")
    }

    /// kill -9 once the first blob records are committed: the datastore is sound, and the
    /// re-run reads fewer blobs than a fresh run and reports what a fresh run reports.
    func testAKilledRunKeepsItsBlobScansAndTheRerunReadsFewerBlobs() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        // 1,600 findings over 800 blobs: the debug build spends well over the two seconds after
        // which the blob store commits its first batch (DatastoreBlobStore) hashing them, so the
        // run is still going when that batch appears, on an idle machine too (200 blobs were
        // all written at the end there, by the final flush).
        let repo = HistoryFixture(in: scratch, commits: 800, perCommit: 2)
        let args = ["history", repo.path, "--rules", rules, "--no-builtin-rules", "--no-progress", "-q", "--format", "jsonl", "--jobs", "1"]
        let db = scratch.path + "/killed.db"
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = args + ["--datastore", db]
        process.environment = CLI.environment()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var recorded = 0
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            if FileManager.default.fileExists(atPath: db), let store = try? Datastore(readingAt: db),
               let n = try? store.blobScanCount(), n > 0 {
                recorded = n
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let stillRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertTrue(stillRunning, "the run ended before its first blob records were seen: the fixture is too small")
        XCTAssertGreaterThan(recorded, 0)
        XCTAssertLessThan(recorded, 800, "killed mid-way")
        XCTAssertTrue(try Datastore(path: db, create: false).integrityCheck())
        XCTAssertNil(try runs(db).last?.ended, "the killed run shows as unfinished")

        let rerun = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(rerun.status, 1)
        let last = try XCTUnwrap(try runs(db).last)
        XCTAssertEqual(last.commits, 800)
        XCTAssertLessThanOrEqual(last.blobs ?? 999, 800 - recorded, "the killed run's blobs are not read again")
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(rerun.stdout), sortedLines(fresh.stdout))
        XCTAssertEqual(sortedLines(fresh.stdout).count, 1600)
        XCTAssertEqual(try Datastore(readingAt: db).findingCount(), 1600, "no duplicates")
        XCTAssertTrue(try Datastore(path: db, create: false).integrityCheck())
    }

    /// A full run whose only errors are the blobs' own (here one over --max-file-size) is a
    /// base for the next: that one walks only new commits and still reports the error, exit 2.
    func testRepeatableErrorsAreCarriedForwardAndTheNextRunStaysIncremental() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let repo = HistoryFixture(in: scratch, commits: 6, perCommit: 1)
        // One large file, over the limit below.
        let big = String(repeating: "x = 1\n", count: 400)
        try Data(big.utf8).write(to: URL(fileURLWithPath: repo.path + "/big.txt"))
        CLI.git(repo.path, ["add", "-A"])
        CLI.git(repo.path, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "big"])
        let db = scratch.path + "/d.db"
        let args = ["history", repo.path, "--rules", rules, "--no-builtin-rules", "--no-progress", "--format", "jsonl",
                    "--max-file-size", "1000"]
        let first = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(first.status, 2)
        XCTAssertTrue(try runs(db).last?.complete == true, "its only error is the blob's own")

        _ = HistoryFixture.append(to: repo.path, commits: 2, perCommit: 1, from: 10)
        let second = CLI.keyshape(args + ["--datastore", db])
        XCTAssertTrue(second.stderr.contains("incremental:"), second.stderr)
        XCTAssertEqual(second.status, 2, "the blob over the limit is still not scanned: exit 2")
        XCTAssertTrue(second.stderr.contains("over the 1000-byte limit"), second.stderr)
        XCTAssertEqual(try runs(db).last?.commits, 2)
        XCTAssertEqual(try runs(db).last?.errors, 1)
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(fresh.status, 2)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(fresh.stdout))
        XCTAssertEqual(sortedLines(second.stdout).count, 8)
    }
}
