import Datastore
import Foundation
import XCTest
import TestSupport

/// The per-blob cache: `history --datastore` reads from git only blobs no earlier run scanned
/// with the same rules, reports what a fresh full run reports, and keeps a killed run's work.
final class BlobCacheTests: XCTestCase {
    func sortedLines(_ text: String) -> [String] { sortedReportLines(text) }

    /// Drops the last `n` commits for good (every reflog entry too), so a datastore's last
    /// run's tips are gone and the next run walks every commit again.
    func dropLastCommits(_ repo: String, _ n: Int) {
        CLI.git(repo, ["reset", "-q", "--hard", "main~\(n)"])
        CLI.git(repo, ["reflog", "expire", "--expire=now", "--all"])
        CLI.git(repo, ["gc", "-q", "--prune=now"])
    }

    /// Rows of a datastore table, counted with raw SQL (what the schema keeps where).
    func rows(_ db: String, _ table: String) throws -> Int64 {
        try XCTUnwrap(try Database(path: db, mode: .readOnly).integer("SELECT count(*) FROM \(table)"))
    }

    /// A history rewritten under the datastore (the last run's tips gone, so every commit is
    /// walked again): only the blobs the new commits add are read; the report is a fresh run's.
    func testAFullWalkAfterARewriteReadsOnlyBlobsNoRunScanned() throws {
        let c = HistoryCase(commits: 20, perCommit: 2)
        let args = c.args(["--format", "jsonl"])
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", c.db]).status, 1)
        XCTAssertEqual(try c.runs().last?.blobs, 20)
        XCTAssertEqual(try Datastore(readingAt: c.db).blobScanCount(), 20)

        // Drop the last two commits for good, then three new ones on top.
        dropLastCommits(c.repo.path, 2)
        _ = HistoryFixture.append(to: c.repo.path, commits: 3, perCommit: 1, from: 40)

        let second = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("no longer on any ref"), second.stderr)
        XCTAssertTrue(second.stderr.contains("18 blobs"), "a note says how many blobs the cache gave: \(second.stderr)")
        let last = try XCTUnwrap(try c.runs().last)
        XCTAssertEqual(last.commits, 21, "every commit walked")
        XCTAssertEqual(last.blobs, 3, "only the three new blobs read from git")
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(fresh.stdout).count, 18 * 2 + 3)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(fresh.stdout), "the report is a fresh full run's")
    }

    /// A blob that gave nothing is kept as its id alone, many to a row (`clean_blobs`); only
    /// blobs with findings get a full record (`blob_scans`). Both serve a later run.
    func testBlobsWithoutFindingsAreKeptAsIdsAloneAndStillServeTheNextRun() throws {
        var c = HistoryCase(commits: 10, perCommit: 1)
        c.repo.secrets += HistoryFixture.append(to: c.repo.path, commits: 15, perCommit: 0, from: 10)
        let args = c.args(["--format", "jsonl"])
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", c.db]).status, 1)
        XCTAssertEqual(try Datastore(readingAt: c.db).blobScanCount(), 25)
        XCTAssertEqual(try rows(c.db, "blob_scans"), 10, "a full record for each blob with a finding only")
        XCTAssertEqual(try rows(c.db, "clean_blobs"), 1, "the 15 clean ids in one row")

        dropLastCommits(c.repo.path, 1)
        _ = HistoryFixture.append(to: c.repo.path, commits: 1, perCommit: 1, from: 30)
        let second = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertEqual(try c.runs().last?.commits, 25, "every commit walked")
        XCTAssertEqual(try c.runs().last?.blobs, 1, "clean and dirty blobs alike came from the datastore")
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(CLI.keyshape(args).stdout))
        XCTAssertEqual(sortedLines(second.stdout).count, 11)
    }

    /// A datastore of schema 4 (every blob a full `blob_scans` record, clean ones too, no walk
    /// tables, no key), as an earlier release wrote it: opening it migrates it to the current
    /// schema, and under the same hash key (the user's here) its records still spare the next
    /// run every blob read. (Without one, the migrated datastore's new key makes records of
    /// another key unreadable, and the next run reads every blob once.)
    func testASchema4DatastoreMigratesAndKeepsItsCache() throws {
        var c = HistoryCase(commits: 6, perCommit: 1)
        c.repo.secrets += HistoryFixture.append(to: c.repo.path, commits: 4, perCommit: 0, from: 6)
        let args = c.args(["--format", "jsonl"])
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", c.db]).status, 1)
        // Back to what schema 4 held: clean blobs as full records (version 1, no finding: the
        // bytes 01 00), none of version 5's tables or columns.
        let db = try Database(path: c.db, mode: .readWrite)
        try db.execute("""
            BEGIN;
            CREATE TABLE ids (n INTEGER PRIMARY KEY);
            WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < 1000) INSERT INTO ids SELECT n FROM k;
            INSERT INTO blob_scans (rule_set, blob, findings, record)
              SELECT b.rule_set, substr(b.ids, 1 + ids.n * b.width, b.width), 0, x'0100'
              FROM clean_blobs b JOIN ids ON ids.n < length(b.ids) / b.width;
            DROP TABLE ids;
            DROP TABLE clean_blobs;
            DROP TABLE walk_commits;
            ALTER TABLE runs DROP COLUMN walk_tips;
            ALTER TABLE runs DROP COLUMN base_run;
            DROP TABLE keys;
            PRAGMA user_version = 4;
            COMMIT;
            """)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM blob_scans"), 10)
        XCTAssertEqual(try Datastore(readingAt: c.db).schemaVersion, 4)

        dropLastCommits(c.repo.path, 1)
        _ = HistoryFixture.append(to: c.repo.path, commits: 1, perCommit: 1, from: 20)
        let second = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertEqual(try Datastore(readingAt: c.db).schemaVersion, 6)
        XCTAssertEqual(try c.runs().last?.commits, 10)
        XCTAssertEqual(try c.runs().last?.blobs, 1, "schema 4's records, clean ones included, still hold")
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(CLI.keyshape(args).stdout))
        XCTAssertTrue(try Datastore(path: c.db, create: false).integrityCheck())
    }

    /// Another rule set is another set of records: every blob is scanned again with it (and a
    /// rule it adds finds what is in old blobs), while the first set's records stay valid for
    /// runs with the first rules.
    func testARulePackChangeRescansAndEachRuleSetKeepsItsOwnRecords() throws {
        let c = HistoryCase(commits: 12, perCommit: 1)
        let twin = TestSecrets.rule.replacingOccurrences(of: "datastore-test-token", with: "datastore-test-twin")
        c.scratch.write("two.toml", TestSecrets.rule + "\n" + twin)
        func args(_ rules: String) -> [String] {
            ["history", c.repo.path, "--rules", rules, "--no-builtin-rules", "--no-progress", "--format", "jsonl"]
        }
        let one = c.rules, two = c.scratch.path + "/two.toml"
        XCTAssertEqual(sortedLines(CLI.keyshape(args(one) + ["--datastore", c.db]).stdout).count, 12)
        XCTAssertEqual(try c.runs().last?.blobs, 12)

        let second = CLI.keyshape(args(two) + ["--datastore", c.db])
        XCTAssertTrue(second.stderr.contains("the rules changed"), second.stderr)
        XCTAssertEqual(try c.runs().last?.blobs, 12, "another rule set: every blob read and scanned again")
        XCTAssertEqual(sortedLines(second.stdout).count, 24, "the added rule finds the old blobs' secrets")
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(CLI.keyshape(args(two)).stdout))

        let back = CLI.keyshape(args(one) + ["--datastore", c.db])
        XCTAssertEqual(try c.runs().last?.commits, 12, "the rules changed again: every commit walked")
        XCTAssertEqual(try c.runs().last?.blobs, 0, "the first rule set's records still hold: no blob read")
        XCTAssertEqual(sortedLines(back.stdout), sortedLines(CLI.keyshape(args(one)).stdout))
        XCTAssertEqual(try Datastore(readingAt: c.db).blobScanCount(), 24, "one record per blob and rule set")
    }

    /// kill -9 once the first blob records and the first batch of attributed commits are
    /// committed: the datastore is sound, and the re-run reads fewer blobs than a fresh run,
    /// attributes only the commits the killed run had not, and reports what a fresh run
    /// reports.
    func testAKilledRunKeepsItsBlobScansAndItsWalkAndTheRerunResumesIt() throws {
        // 1,600 findings over 800 blobs, and the blob store writing every 0.1 s instead of
        // every 2 (DatastoreBlobStore.flushSeconds): the run is still going when the first
        // write appears, however fast the machine (at 2 s, an idle machine's debug build had
        // scanned all 800 blobs before the first write).
        let c = HistoryCase(commits: 800, perCommit: 2, db: "killed.db")
        let args = c.args(["-q", "--format", "jsonl", "--jobs", "1"])
        let process = try CLI.start(args + ["--datastore", c.db], extraEnvironment: ["KEYSHAPE_DATASTORE_FLUSH_SECONDS": "0.1"])
        var recorded = 0
        // Generous: at a load average of 46 on two cores, 120 s went by before the debug build
        // had logged its first batch of commits. The loop ends as soon as both are seen.
        let deadline = Date().addingTimeInterval(900)
        while process.isRunning && Date() < deadline {
            if FileManager.default.fileExists(atPath: c.db), let store = try? Datastore(readingAt: c.db),
               let n = try? store.blobScanCount(), n > 0, let run = try? store.runs().last?.id,
               let walked = try? store.walkCommits(run: run), !walked.isEmpty {
                recorded = n
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let stillRunning = process.isRunning
        CLI.kill9(process)
        XCTAssertTrue(stillRunning, "the run ended before its first records were seen: the fixture is too small")
        XCTAssertGreaterThan(recorded, 0)
        XCTAssertLessThan(recorded, 800, "killed mid-way")
        XCTAssertTrue(try Datastore(path: c.db, create: false).integrityCheck())
        let killed = try XCTUnwrap(try c.runs().last)
        XCTAssertNil(killed.ended, "the killed run shows as unfinished")
        let attributed = try Datastore(readingAt: c.db).walkCommits(run: killed.id).count
        XCTAssertGreaterThan(attributed, 0)
        XCTAssertLessThan(attributed, 800)

        let rerun = CLI.keyshape(c.args(["--format", "jsonl", "--jobs", "1"]) + ["--datastore", c.db])
        XCTAssertEqual(rerun.status, 1)
        XCTAssertTrue(rerun.stderr.contains("resumed the walk of run \(killed.id)"), rerun.stderr)
        let last = try XCTUnwrap(try c.runs().last)
        XCTAssertEqual(last.commits, 800 - attributed, "only the commits the killed run had not attributed")
        XCTAssertEqual(try Datastore(readingAt: c.db).walkCommits(run: last.id).count, 800, "its walk, with the killed run's, is whole")
        XCTAssertLessThanOrEqual(last.blobs ?? 999, 800 - recorded, "the killed run's blobs are not read again")
        XCTAssertTrue(last.complete, "a base for the next run, as an uninterrupted run is")
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(rerun.stdout), sortedLines(fresh.stdout))
        XCTAssertEqual(sortedLines(fresh.stdout).count, 1600)
        XCTAssertEqual(try Datastore(readingAt: c.db).findingCount(), 1600, "no duplicates")
        XCTAssertTrue(try Datastore(path: c.db, create: false).integrityCheck())

        // The next run builds on the resumed one: nothing new, nothing walked, the same report.
        let third = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertTrue(third.stderr.contains("incremental:"), third.stderr)
        XCTAssertEqual(try c.runs().last?.commits, 0)
        XCTAssertEqual(sortedLines(third.stdout), sortedLines(fresh.stdout))
    }

    /// A full run whose only errors are the blobs' own (here one over --max-file-size) is a
    /// base for the next: that one walks only new commits and still reports the error, exit 2.
    func testRepeatableErrorsAreCarriedForwardAndTheNextRunStaysIncremental() throws {
        let c = HistoryCase(commits: 6, perCommit: 1)
        addBigFile(c.repo.path)
        let args = c.args(["--format", "jsonl", "--max-file-size", "1000"])
        let first = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertEqual(first.status, 2)
        XCTAssertTrue(try c.runs().last?.complete == true, "its only error is the blob's own")

        _ = HistoryFixture.append(to: c.repo.path, commits: 2, perCommit: 1, from: 10)
        let second = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertTrue(second.stderr.contains("incremental:"), second.stderr)
        XCTAssertEqual(second.status, 2, "the blob over the limit is still not scanned: exit 2")
        XCTAssertTrue(second.stderr.contains("over the 1000-byte limit"), second.stderr)
        XCTAssertEqual(try c.runs().last?.commits, 2)
        XCTAssertEqual(try c.runs().last?.errors, 1)
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(fresh.status, 2)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(fresh.stdout))
        XCTAssertEqual(sortedLines(second.stdout).count, 8)
    }

    /// A run killed after its last batch was logged (made so here: a finished run marked as
    /// never finished): the next run resumes it, walks no commit, and still reports the
    /// killed run's findings and its error (exit 2), each once.
    func testAResumedRunTakesOverTheKilledRunsFindingsAndErrors() throws {
        let c = HistoryCase(commits: 6, perCommit: 1)
        addBigFile(c.repo.path)
        let args = c.args(["--format", "jsonl", "--max-file-size", "1000"])
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", c.db]).status, 2)
        let first = try XCTUnwrap(try c.runs().last)
        XCTAssertEqual(first.commits, 7)
        try Database(path: c.db, mode: .readWrite).execute("UPDATE runs SET ended = NULL, complete = 0 WHERE id = \(first.id)")

        let second = CLI.keyshape(args + ["--datastore", c.db])
        XCTAssertEqual(second.status, 2, "the killed run's error is this run's: exit 2")
        XCTAssertTrue(second.stderr.contains("resumed the walk of run \(first.id)"), second.stderr)
        XCTAssertTrue(second.stderr.contains("over the 1000-byte limit"), second.stderr)
        let last = try XCTUnwrap(try c.runs().last)
        XCTAssertEqual(last.commits, 0, "every commit was attributed by the killed run")
        XCTAssertEqual(last.errors, 1, "the error once")
        XCTAssertEqual(try Datastore(readingAt: c.db).errors(run: last.id).count, 1)
        let fresh = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(fresh.stdout))
        XCTAssertEqual(sortedLines(second.stdout).count, 6)
        XCTAssertEqual(try Datastore(readingAt: c.db).findingCount(), 6, "no duplicates")
    }

    /// One commit adding a file over 1,000 bytes.
    func addBigFile(_ repo: String) {
        let big = String(repeating: "x = 1\n", count: 400)
        try! Data(big.utf8).write(to: URL(fileURLWithPath: repo + "/big.txt"))
        CLI.git(repo, ["add", "-A"])
        CLI.git(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "big"])
    }
}
