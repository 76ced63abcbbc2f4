import Datastore
import Foundation
import XCTest
import TestSupport

/// `--datastore` on scan, history and audit, and `report`, `summarize`, `triage`, `import`,
/// through the built executable.
final class DatastoreCommandTests: XCTestCase {
    /// A folder with two test secrets and the rule that finds them.
    func sources(_ scratch: TempDir, name: String = "src") -> (path: String, rules: String, secrets: [String]) {
        let secrets = [TestSecrets.make(), TestSecrets.make()]
        scratch.write("\(name)/config.env", "TOKEN=\(secrets[0])\n")
        scratch.write("\(name)/app/main.swift", "let a = 1\nlet token = \"\(secrets[1])\"\n")
        scratch.write("rules.toml", TestSecrets.rule)
        return (scratch.path + "/" + name, scratch.path + "/rules.toml", secrets)
    }

    func reportLines(_ db: String, _ extra: [String] = []) -> [[String: Any]] {
        let r = CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"] + extra)
        XCTAssertTrue([0, 1].contains(r.status), r.stderr)
        return r.reportLines
    }

    func testTheDatastoreNeverHoldsAValueOrAFragment() throws {
        let scratch = TempDir()
        let (src, rules, secrets) = sources(scratch)
        var repo = HistoryFixture(in: scratch, commits: 5, perCommit: 2)
        let db = scratch.path + "/audit.db"
        XCTAssertEqual(CLI.keyshape(["scan", src, "--rules", rules, "--datastore", db, "--no-progress"]).status, 1)
        XCTAssertEqual(CLI.keyshape(["history", repo.path, "--rules", rules, "--datastore", db, "--no-progress"]).status, 1)
        // A note and an import too: every table has rows.
        let fingerprint = try XCTUnwrap(reportLines(db).first?["fingerprint"] as? String)
        XCTAssertEqual(CLI.keyshape(["triage", "--datastore", db, fingerprint, "--status", "accepted", "--note", "reviewed"]).status, 0)
        let jsonl = scratch.path + "/other.jsonl"
        XCTAssertEqual(CLI.keyshape(["scan", src, "--rules", rules, "--format", "jsonl", "--output", jsonl]).status, 1)
        XCTAssertEqual(CLI.keyshape(["import", "--datastore", db, jsonl]).status, 0)
        XCTAssertEqual(try Datastore(readingAt: db).findingCount(), 2 + 10 + 2)
        repo.secrets += secrets
        var files = ["audit.db"]
        if FileManager.default.fileExists(atPath: db + "-wal") { files.append("audit.db-wal") }
        for name in files {
            let bytes = try XCTUnwrap(scratch.bytes(name))
            for secret in repo.secrets { TestSecrets.assertNoFragment(of: secret, in: bytes, name) }
        }
        // And the reports made from it.
        for format in ["text", "json", "jsonl", "sarif", "html"] {
            let r = CLI.keyshape(["report", "--datastore", db, "--format", format, "--status", "open,accepted"])
            for secret in repo.secrets { TestSecrets.assertNoFragment(of: secret, in: Data((r.stdout + r.stderr).utf8), format) }
        }
        let summary = CLI.keyshape(["summarize", "--datastore", db])
        for secret in repo.secrets { TestSecrets.assertNoFragment(of: secret, in: Data((summary.stdout + summary.stderr).utf8), "summarize") }
    }

    func testTriageSurvivesRescansAndActsAsABaseline() throws {
        let scratch = TempDir()
        let (src, rules, _) = sources(scratch)
        let db = scratch.path + "/d.db"
        let scan = ["scan", src, "--rules", rules, "--no-builtin-rules", "--datastore", db, "--no-progress", "--format", "jsonl"]
        let first = CLI.keyshape(scan)
        XCTAssertEqual(first.status, 1)
        XCTAssertEqual(first.stdout.split(separator: "\n").count, 2)
        let fingerprints = reportLines(db).compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(fingerprints.count, 2)

        let triage = CLI.keyshape(["triage", "--datastore", db, fingerprints[0], "--status", "revoked", "--note", "rotated <b>\u{1b}[31m"])
        XCTAssertEqual(triage.status, 0, triage.stderr)
        let second = CLI.keyshape(scan)
        XCTAssertEqual(second.status, 1, "one finding is still open")
        XCTAssertEqual(second.stdout.split(separator: "\n").count, 1)
        XCTAssertFalse(second.stdout.contains(fingerprints[0]), "a revoked finding is not reported again")
        XCTAssertTrue(second.stderr.contains("baseline 1"), second.stderr)

        XCTAssertEqual(CLI.keyshape(["triage", "--datastore", db, fingerprints[1], "--status", "false-positive"]).status, 0)
        XCTAssertEqual(CLI.keyshape(scan).status, 0, "everything is triaged: the scan passes")
        XCTAssertEqual(CLI.keyshape(["report", "--datastore", db]).status, 0, "report shows open findings only by default")

        let revoked = reportLines(db, ["--status", "revoked"])
        XCTAssertEqual(revoked.map { $0["fingerprint"] as? String }, [fingerprints[0]])
        XCTAssertEqual(revoked.first?["status"] as? String, "revoked")
        XCTAssertEqual(revoked.first?["note"] as? String, "rotated <b>\u{1b}[31m", "the note survives re-scans, as data")
        let all = CLI.keyshape(["report", "--datastore", db, "--status", "open,revoked,false-positive", "--format", "json"])
        XCTAssertEqual(all.status, 0, "report succeeds whatever the datastore holds")
        XCTAssertFalse(all.stdout.contains("\u{1b}"), "the note's control character is escaped")

        // A fingerprint nobody recorded: an error, and nothing changes.
        let typo = CLI.keyshape(["triage", "--datastore", db, fingerprints[1], "feedfacefeedface", "--status", "open"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertFalse(typo.stderr.contains("feedface"), "the argument is not echoed")
        XCTAssertEqual(reportLines(db, ["--status", "false-positive"]).count, 1)
    }

    func testReportFiltersByStatusRuleAndRepository() throws {
        let scratch = TempDir()
        let (one, rules, _) = sources(scratch, name: "one")
        let (two, _, _) = sources(scratch, name: "two")
        // A builtin rule's shape, put together at run time so this file itself scans clean.
        scratch.write("two/extra.txt", "AWS key " + "AKIA" + "Z7QWERTYUIOP5NMB\n")
        let db = scratch.path + "/d.db"
        XCTAssertEqual(CLI.keyshape(["scan", one, "--rules", rules, "--datastore", db, "-q"]).status, 1)
        XCTAssertEqual(CLI.keyshape(["scan", two, "--rules", rules, "--datastore", db, "-q"]).status, 1)
        let all = reportLines(db)
        XCTAssertEqual(all.count, 5)
        XCTAssertEqual(Set(all.compactMap { $0["repository"] as? String }), ["one", "two"])
        XCTAssertEqual(reportLines(db, ["--repo", "one"]).count, 2)
        XCTAssertEqual(reportLines(db, ["--repo", two]).count, 3, "a repository by its root path")
        XCTAssertEqual(reportLines(db, ["--rule", "datastore-test-token"]).count, 4)
        XCTAssertEqual(reportLines(db, ["--rule", "datastore-test-token", "--repo", "two"]).count, 2)
        XCTAssertEqual(reportLines(db, ["--status", "accepted"]).count, 0)
        XCTAssertEqual(CLI.keyshape(["report", "--datastore", db, "--rule", "no-such-rule"]).status, 0)
        XCTAssertEqual(CLI.keyshape(["report", "--datastore", db, "--status", "bogus"]).status, 2)
        let sarif = CLI.keyshape(["report", "--datastore", db, "--format", "sarif"])
        XCTAssertEqual(sarif.status, 0)
        XCTAssertEqual(CLI.keyshape(["report", "--datastore", db, "--format", "sarif", "--exit-code", "1"]).status, 1, "a gate asks")
        XCTAssertTrue(sarif.stdout.contains("\"ruleId\""))
    }

    func testSummarizeGroupsOneKeyAcrossPlacesAndRepositories() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let shared = TestSecrets.make()
        let repoA = HistoryFixture(in: scratch, name: "alpha", commits: 2, perCommit: 1)
        let repoB = HistoryFixture(in: scratch, name: "beta", commits: 1, perCommit: 1)
        for repo in [repoA.path, repoB.path] {
            try Data("let shared = \"\(shared)\"\n".utf8).write(to: URL(fileURLWithPath: repo + "/shared.swift"))
            CLI.git(repo, ["add", "shared.swift"])
            CLI.git(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "shared"])
        }
        let db = scratch.path + "/d.db"
        for repo in [repoA.path, repoB.path] {
            XCTAssertEqual(CLI.keyshape(["history", repo, "--rules", rules, "--no-builtin-rules", "--datastore", db, "-q"]).status, 1)
        }
        XCTAssertEqual(CLI.keyshape(["scan", repoA.path, "--rules", rules, "--no-builtin-rules", "--datastore", db, "-q"]).status, 1)
        let r = CLI.keyshape(["summarize", "--datastore", db])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("8 findings (8 open), 4 distinct secrets, 2 repositories, 3 runs") == true, r.stdout)
        // The shared key: two commits (one per repository) and the sources scan of alpha.
        let group = try XCTUnwrap(lines.first { $0.contains("3 places in 2 repositories") }, r.stdout)
        XCTAssertTrue(group.contains("first committed "), group)
        XCTAssertTrue(group.contains("still present at HEAD: yes"), group)
        // alpha's own keys: in history and in its sources.
        XCTAssertEqual(lines.filter { $0.contains("one key, 2 places in 1 repository") && $0.contains("still present at HEAD: yes") }.count, 2, r.stdout)
        XCTAssertEqual(lines.filter { $0.contains("one key, 1 place in 1 repository") && !$0.contains("HEAD") }.count, 1,
                       "beta's own key: no sources scan of beta, so whether it is at HEAD is not known")
        XCTAssertTrue(r.stdout.contains("By rule:\n       8 (8 open)  datastore-test-token"), r.stdout)
    }

    func testImportMergesParallelJobsReportsIdempotently() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let names = ["api", "web", "worker", "infra"]
        var expected = 0
        for (n, name) in names.enumerated() {
            _ = HistoryFixture(in: scratch, name: name, commits: 3 + n, perCommit: 2)
            expected += (3 + n) * 2
        }
        // One job per repository, at once, each writing its own report (as CI matrix jobs would).
        let group = DispatchGroup()
        for name in names {
            group.enter()
            DispatchQueue.global().async {
                let r = CLI.keyshape(["history", scratch.path + "/" + name, "--rules", rules, "--no-builtin-rules", "--format", "jsonl",
                                      "--output", scratch.path + "/\(name).jsonl", "-q"])
                XCTAssertEqual(r.status, 1, name)
                group.leave()
            }
        }
        group.wait()
        // The merges at once too, into one new datastore: its creation and the writes interleave.
        let db = scratch.path + "/merged.db"
        for name in names {
            group.enter()
            DispatchQueue.global().async {
                let r = CLI.keyshape(["import", "--datastore", db, scratch.path + "/\(name).jsonl"])
                XCTAssertEqual(r.status, 0, r.stderr)
                group.leave()
            }
        }
        group.wait()
        let store = try Datastore(readingAt: db)
        XCTAssertEqual(try store.findingCount(), expected)
        let once = reportLines(db)
        XCTAssertEqual(Set(once.compactMap { $0["repository"] as? String }), Set(names))
        // Again, all at once in one process: nothing new.
        XCTAssertEqual(CLI.keyshape(["import", "--datastore", db] + names.map { scratch.path + "/\($0).jsonl" }).status, 0)
        XCTAssertEqual(try store.findingCount(), expected)
        XCTAssertEqual(reportLines(db).count, once.count)
        XCTAssertTrue(try store.integrityCheck())

        scratch.write("broken.jsonl", "{\"rule\": \"x\"}\nnot json\n")
        let broken = CLI.keyshape(["import", "--datastore", db, scratch.path + "/broken.jsonl"])
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.contains("line 1"), broken.stderr)
        XCTAssertEqual(try store.findingCount(), expected, "a report that does not parse adds nothing")
    }

    /// A file keyshape did not write, given as --datastore to any command: exit 2, a clear
    /// line, the file byte for byte as it was, and no scan report.
    func testCorruptOrForeignFilesAreRefusedUnchanged() throws {
        let scratch = TempDir()
        let (src, rules, _) = sources(scratch)
        scratch.write("notes.db", String(repeating: "not a database at all\n", count: 100))
        do {
            let other = try Database(path: scratch.path + "/other.db", mode: .create)
            _ = try other.integer("PRAGMA journal_mode=DELETE")
            try other.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        }
        do {
            _ = try Datastore(path: scratch.path + "/newer.db", create: true)
        }
        do {
            let raw = try Database(path: scratch.path + "/newer.db", mode: .readWrite)
            _ = try raw.integer("PRAGMA journal_mode=DELETE")
            try raw.execute("PRAGMA user_version = 7")
        }
        scratch.write("r.jsonl", "")
        for name in ["notes.db", "other.db", "newer.db"] {
            let db = scratch.path + "/" + name
            let before = try XCTUnwrap(scratch.bytes(name))
            for args in [["scan", src, "--rules", rules, "--datastore", db], ["history", src, "--datastore", db],
                         ["report", "--datastore", db], ["summarize", "--datastore", db],
                         ["triage", "--datastore", db, "0123456789abcdef", "--status", "accepted"],
                         ["import", "--datastore", db, scratch.path + "/r.jsonl"]] {
                let r = CLI.keyshape(args)
                XCTAssertEqual(r.status, 2, "\(name) \(args[0])")
                XCTAssertTrue(r.stderr.contains("\(name): "), "\(name) \(args[0]): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("not a keyshape datastore") || r.stderr.contains("newer keyshape"), r.stderr)
                XCTAssertEqual(r.stdout, "", "nothing scanned, nothing reported (\(name) \(args[0]))")
                XCTAssertEqual(scratch.bytes(name), before, "\(name) unchanged after \(args[0])")
                XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-wal"))
            }
        }
        let missing = CLI.keyshape(["report", "--datastore", scratch.path + "/none.db"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/none.db"), "a reader creates nothing")
    }

    /// kill -9 of `history --datastore` at several points, then a re-run: the findings of an
    /// uninterrupted run, no duplicates, and a datastore sqlite finds sound.
    func testKilledHistoryRunsLeaveASoundDatastoreAndARerunCompletesIt() throws {
        // 300 findings (each found finding costs the debug build ~8 ms of hashing: a larger
        // history made this test take minutes on a loaded machine).
        let c = HistoryCase(commits: 60, perCommit: 5, db: "killed.db")
        let args = c.args(["-q", "--jobs", "2"])
        let reference = c.scratch.path + "/reference.db"
        let started = Date()
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", reference]).status, 1)
        let duration = Date().timeIntervalSince(started)
        let expected = Set(reportLines(reference).map(Self.identity))
        XCTAssertEqual(expected.count, 300)

        let db = c.db
        for fraction in [0.2, 0.6, 0.9, 1.0] {
            let process = try CLI.start(args + ["--datastore", db])
            Thread.sleep(forTimeInterval: duration * fraction)
            CLI.kill9(process)
            if FileManager.default.fileExists(atPath: db) {
                let store = try Datastore(path: db, create: false)
                XCTAssertTrue(try store.integrityCheck(), "after a kill at \(fraction)")
                let partial = reportLines(db).map(Self.identity)
                XCTAssertEqual(Set(partial).count, partial.count, "no duplicates after a kill at \(fraction)")
                XCTAssertTrue(Set(partial).isSubset(of: expected))
            }
        }
        // What the killed runs attributed between them (each resumed the one before): the
        // re-run attributes the rest only, and its walk with theirs is the whole history.
        // A run that finished makes the later ones incremental: nothing left to walk.
        let killedRuns = try c.runs()
        let finished = killedRuns.contains { $0.ended != nil }
        let store = try Datastore(readingAt: db)
        let attributed = try killedRuns.map { try store.walkCommits(run: $0.id).count }.max() ?? 0
        XCTAssertEqual(CLI.keyshape(args + ["--datastore", db]).status, 1)
        let last = try XCTUnwrap(try c.runs().last)
        XCTAssertEqual(last.commits, finished ? 0 : 60 - attributed, "only commits no killed run attributed")
        if !finished { XCTAssertEqual(try Datastore(readingAt: db).walkCommits(run: last.id).count, 60) }
        let rerun = reportLines(db).map(Self.identity)
        XCTAssertEqual(rerun.count, expected.count, "no duplicates")
        XCTAssertEqual(Set(rerun), expected)
        XCTAssertTrue(try Datastore(path: db, create: false).integrityCheck())
    }

    static func identity(_ o: [String: Any]) -> String {
        let l = o["location"] as? [String: Any] ?? [:]
        return [o["fingerprint"], l["commit"], l["path"], l["line"], l["column"]].map { "\($0 ?? "")" }.joined(separator: "|")
    }

    /// `report` and `summarize` while history runs write into the same datastore: each read is
    /// one committed state, never an error. History commits each read batch's findings with
    /// the commits it attributed (so a killed walk resumes where it stopped), so a committed
    /// state holds whole commits: a multiple of the 5 findings each commit adds, never fewer
    /// than a read before it saw. (Whole `batchSize` transactions alone, 0 or 300 here, held
    /// only while every commit came in one read batch.)
    func testReadersWhileAWriterWritesSeeWholeCommits() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        let rules = scratch.path + "/rules.toml"
        let repo = HistoryFixture(in: scratch, commits: 60, perCommit: 5)
        let db = scratch.path + "/d.db"
        // The datastore exists before the readers start.
        scratch.write("empty.jsonl", "")
        XCTAssertEqual(CLI.keyshape(["import", "--datastore", db, scratch.path + "/empty.jsonl"]).status, 0)
        let writer = Process()
        writer.executableURL = CLI.binary
        writer.arguments = ["history", repo.path, "--rules", rules, "--no-builtin-rules", "--datastore", db, "-q"]
        writer.environment = CLI.environment()
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        var seen = Set<Int>()
        while writer.isRunning || seen.isEmpty {
            let r = CLI.keyshape(["report", "--datastore", db, "--format", "json"])
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
            let object = try XCTUnwrap(r.report)
            let count = (object["findings"] as? [Any])?.count ?? -1
            XCTAssertTrue(count >= 0 && count <= 300 && count % 5 == 0, "a read saw \(count) findings: not whole commits")
            XCTAssertGreaterThanOrEqual(count, seen.max() ?? 0, "a read saw fewer findings than one before it")
            seen.insert(count)
            let s = CLI.keyshape(["summarize", "--datastore", db])
            XCTAssertEqual(s.status, 0, s.stderr)
            if !writer.isRunning { break }
        }
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 1)
        XCTAssertEqual(reportLines(db).count, 300)
    }

    /// `scan --datastore` records batches as findings are reported, not only at the end: with
    /// its stdout left unread (the pipe fills and the scan waits), the first batches are
    /// already in the datastore.
    func testScanRecordsBatchesWhileItRuns() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        for n in 0..<120 {
            scratch.write("tree/file\(n).txt", (0..<10).map { _ in "token = " + TestSecrets.make() + "\n" }.joined())
        }
        let db = scratch.path + "/d.db"
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["scan", scratch.path + "/tree", "--rules", scratch.path + "/rules.toml", "--no-builtin-rules",
                             "--datastore", db, "--no-progress", "--jobs", "1"]
        process.environment = CLI.environment()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seenWhileRunning = 0
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && process.isRunning {
            if FileManager.default.fileExists(atPath: db), let store = try? Datastore(readingAt: db),
               let n = try? store.findingCount(), n >= Datastore.batchSize {
                seenWhileRunning = n
                break
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertTrue(process.isRunning, "the scan waits on its unread stdout")
        XCTAssertGreaterThanOrEqual(seenWhileRunning, Datastore.batchSize, "a batch was recorded before the scan ended")
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertEqual(String(decoding: printed, as: UTF8.self).split(separator: "\n").count, 1200)
        XCTAssertEqual(try Datastore(readingAt: db).findingCount(), 1200)
        XCTAssertEqual(try Datastore(readingAt: db).runs().last?.findings, 1200)
    }

    func testHelpAndUsageErrors() {
        XCTAssertEqual(CLI.keyshape(["report"]).status, 2)
        XCTAssertTrue(CLI.keyshape(["report"]).stderr.contains("needs --datastore DB"))
        XCTAssertEqual(CLI.keyshape(["triage", "--datastore", "x.db", "abc"]).status, 2)
        XCTAssertEqual(CLI.keyshape(["staged", "--datastore", "x.db"]).status, 2, "staged does not record")
        for command in ["report", "summarize", "triage", "import"] {
            let r = CLI.keyshape([command, "--help"])
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains("--datastore DB"), command)
        }
    }
}

/// A second `history --datastore` of the same repository walks only new commits and still
/// reports what a full run reports; other rules, or a rewritten history, mean a full run.
final class IncrementalHistoryTests: XCTestCase {
    func runs(_ db: String) throws -> [RunInfo] { try Datastore(readingAt: db).runs() }

    func sortedLines(_ text: String) -> [String] { sortedReportLines(text) }

    func testASecondRunReadsOnlyNewCommitsAndReportsWhatAFullRunDoes() throws {
        let fixture = HistoryCase(commits: 30, perCommit: 2)
        let (scratch, repo, db) = (fixture.scratch, fixture.repo, fixture.db)
        let args = fixture.args(["--format", "jsonl"])
        let first = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(first.status, 1)
        XCTAssertEqual(sortedLines(first.stdout).count, 60)

        // Ten new commits, one of them changing an old file (its old secret stays, one is added).
        _ = HistoryFixture.append(to: repo.path, commits: 9, perCommit: 1, from: 30)
        let changed = repo.path + "/src/file3.swift"
        let added = TestSecrets.make()
        try Data(((try String(contentsOfFile: changed, encoding: .utf8)) + "let more = \"\(added)\"\n").utf8).write(to: URL(fileURLWithPath: changed))
        CLI.git(repo.path, ["add", "-A"])
        CLI.git(repo.path, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "more"])

        let second = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("incremental:"), second.stderr)
        let full = CLI.keyshape(args)
        XCTAssertEqual(sortedLines(full.stdout).count, 60 + 9 + 1)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(full.stdout), "the incremental run reports what a full run reports")
        let recorded = try runs(db)
        XCTAssertEqual(recorded.count, 2)
        XCTAssertEqual(recorded[0].commits, 30)
        XCTAssertEqual(recorded[1].commits, 10, "only the new commits were walked")
        // The changed file's old version is the first run's: the per-blob cache has it.
        XCTAssertEqual(recorded[1].blobs, 10, "the new blobs only; the first run read \(recorded[0].blobs ?? 0)")
        XCTAssertTrue(recorded[1].complete)
        XCTAssertEqual(try Datastore(readingAt: db).findingCount(), 70, "no duplicates")

        // Nothing new: nothing walked, the same report.
        let third = CLI.keyshape(args + ["--datastore", db])
        XCTAssertEqual(sortedLines(third.stdout), sortedLines(full.stdout))
        XCTAssertEqual(try runs(db).last?.commits, 0)

        // Other rules (a --rules edit): every commit again.
        scratch.write("rules.toml", TestSecrets.rule + "\n# edited\n")
        let edited = CLI.keyshape(args + ["--datastore", db])
        XCTAssertTrue(edited.stderr.contains("the rules changed"), edited.stderr)
        XCTAssertEqual(try runs(db).last?.commits, 40)
        XCTAssertEqual(sortedLines(edited.stdout), sortedLines(full.stdout))
    }

    func testARewrittenHistoryIsScannedWholeAndDroppedCommitsAreNotReported() throws {
        let fixture = HistoryCase(commits: 6, perCommit: 1)
        let (repo, db) = (fixture.repo, fixture.db)
        let args = fixture.args(["--format", "jsonl"])
        XCTAssertEqual(sortedLines(CLI.keyshape(args + ["--datastore", db]).stdout).count, 6)
        // Drop the last two commits and every reflog entry that kept them.
        CLI.git(repo.path, ["reset", "-q", "--hard", "main~2"])
        CLI.git(repo.path, ["reflog", "expire", "--expire=now", "--all"])
        CLI.git(repo.path, ["gc", "-q", "--prune=now"])
        let second = CLI.keyshape(args + ["--datastore", db])
        XCTAssertTrue(second.stderr.contains("no longer on any ref"), second.stderr)
        XCTAssertEqual(try runs(db).last?.commits, 4)
        XCTAssertEqual(sortedLines(second.stdout), sortedLines(CLI.keyshape(args).stdout))
        XCTAssertEqual(sortedLines(second.stdout).count, 4)
    }
}
