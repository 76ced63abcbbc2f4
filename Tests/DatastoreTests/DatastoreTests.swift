@testable import Datastore
import Foundation
import ScanCore
import XCTest

/// The datastore's own behaviour, through its API: recording, re-recording, triage,
/// snapshots, and refusing files it did not write.
final class DatastoreTests: XCTestCase {
    var dir: String!

    override func setUp() {
        dir = NSTemporaryDirectory() + "keyshape-datastore-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func finding(_ path: String, line: Int, rule: String = "test-rule", hash: String = "00aa00aa00aa00aa", commit: String? = nil) -> Finding {
        var l = Location(kind: commit == nil ? .file : .commit, path: path, byteOffset: line * 10, byteLength: 20)
        l.line = line; l.column = 3; l.endLine = line; l.endColumn = 23
        l.commit = commit
        if commit != nil { l.date = "2021-03-02T10:00:00Z"; l.blob = String(repeating: "b", count: 40) }
        return Finding(rule: rule, description: "Test rule", fingerprint: "fp-\(rule)-\(path)", secretHash: hash, location: l)
    }

    func start(_ store: Datastore, root: String = "/repos/one", command: String = "scan") throws -> Int64 {
        try store.beginRun(RunStart(command: command, arguments: ["--format"], keyshapeVersion: "0", rulePack: "1",
                                    rulesHash: "h", repository: RepositoryRef(root: root)))
    }

    func testRecordingTwiceKeepsOneRowPerPlaceAndMovesLastSeen() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        let findings = [finding("a.txt", line: 1), finding("b.txt", line: 2)]
        let first = try start(store)
        try store.record(findings, run: first)
        try store.finishRun(first, findings: 2, errors: 0, stats: ScanStats())
        let second = try start(store)
        try store.record(findings, run: second)
        let stored = try store.findings()
        XCTAssertEqual(stored.count, 2)
        XCTAssertEqual(Set(stored.map(\.firstSeenRun)), [first])
        XCTAssertEqual(Set(stored.map(\.lastSeenRun)), [second])
        XCTAssertEqual(stored.map(\.finding), findings.sorted())
        XCTAssertTrue(try store.integrityCheck())
    }

    func testTriageIsAllOrNothingAndSurvivesRecordingAgain() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        let findings = [finding("a.txt", line: 1), finding("b.txt", line: 2)]
        let run = try start(store)
        try store.record(findings, run: run)
        XCTAssertThrowsError(try store.triage([findings[0].fingerprint, "no-such-fingerprint"], status: .accepted, note: nil)) { error in
            XCTAssertEqual((error as? DatastoreError)?.kind, .request)
            XCTAssertFalse("\(error)".contains("no-such-fingerprint"), "an argument is never echoed")
        }
        XCTAssertEqual(try store.settledFingerprints(), [], "a failed triage changes nothing")
        XCTAssertEqual(try store.triage([findings[0].fingerprint], status: .revoked, note: "rotated\u{1b}[2J"), 1)
        let again = try start(store)
        try store.record(findings, run: again)
        XCTAssertEqual(try store.settledFingerprints(), [findings[0].fingerprint])
        let stored = try store.findings(FindingFilter(statuses: [.revoked]))
        XCTAssertEqual(stored.map(\.finding.fingerprint), [findings[0].fingerprint])
        XCTAssertEqual(stored.first?.note, "rotated\u{1b}[2J", "the note is kept as data (escaped where shown)")
        XCTAssertEqual(try store.findings(FindingFilter(statuses: [.open])).map(\.finding), [findings[1]])
    }

    func testFiltersByRuleAndRepository() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        let one = try start(store, root: "/repos/one")
        try store.record([finding("a.txt", line: 1, rule: "r1"), finding("b.txt", line: 1, rule: "r2")], run: one)
        let two = try start(store, root: "/repos/two")
        try store.record([finding("a.txt", line: 1, rule: "r1")], run: two)
        XCTAssertEqual(try store.findings().count, 3, "the same place in two repositories is two findings")
        XCTAssertEqual(try store.findings(FindingFilter(rules: ["r1"])).count, 2)
        XCTAssertEqual(try store.findings(FindingFilter(repositories: ["two"])).map(\.repositoryRoot), ["/repos/two"])
        XCTAssertEqual(try store.findings(FindingFilter(rules: ["r2"], repositories: ["/repos/two"])).count, 0)
    }

    func testSummaryGroupsOneKeyAcrossRepositories() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        let history = try start(store, root: "/repos/one", command: "history")
        try store.record([finding("a.txt", line: 1, commit: String(repeating: "1", count: 40)),
                          finding("c.txt", line: 4, hash: "11bb11bb11bb11bb", commit: String(repeating: "2", count: 40))], run: history)
        let sources = try start(store, root: "/repos/two", command: "scan")
        try store.record([finding("a.txt", line: 1)], run: sources)
        try store.finishRun(sources, findings: 1, errors: 0, stats: ScanStats())
        let summary = try store.snapshot { try store.summary(of: try store.findings()) }
        XCTAssertEqual(summary.findings, 3)
        let group = try XCTUnwrap(summary.bySecret.first { $0.secretHash == "00aa00aa00aa00aa" })
        XCTAssertEqual(group.places, 2)
        XCTAssertEqual(group.repositories, 2)
        XCTAssertEqual(group.firstCommitted, "2021-03-02T10:00:00Z")
        XCTAssertEqual(group.presentAtHead, true, "the latest sources scan of /repos/two found it")
        let other = try XCTUnwrap(summary.bySecret.first { $0.secretHash == "11bb11bb11bb11bb" })
        XCTAssertNil(other.presentAtHead, "no sources scan of /repos/one: unknown")
        XCTAssertEqual(summary.byRepository.map(\.findings), [2, 1])
    }

    /// A reader's snapshot keeps seeing one state while a writer commits batches.
    func testSnapshotSeesOneStateWhileAWriterCommits() throws {
        let writer = try Datastore(path: dir + "/d.db", create: true)
        let run = try start(writer)
        try writer.record([finding("a.txt", line: 1)], run: run)
        let reader = try Datastore(readingAt: dir + "/d.db")
        try reader.snapshot {
            XCTAssertEqual(try reader.findings().count, 1)
            try writer.record((2...700).map { finding("f\($0).txt", line: $0) }, run: run)
            XCTAssertEqual(try reader.findings().count, 1, "inside its snapshot the reader sees the state it started with")
        }
        XCTAssertEqual(try reader.findings().count, 700)
    }

    // MARK: Files that are not ours

    func assertRefused(_ path: String, kind: DatastoreError.Kind, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = FileManager.default.contents(atPath: path)
        XCTAssertThrowsError(try Datastore(path: path, create: true), file: file, line: line) { error in
            XCTAssertEqual((error as? DatastoreError)?.kind, kind, "\(error)", file: file, line: line)
        }
        XCTAssertThrowsError(try Datastore(readingAt: path), file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: path), before, "the file is left as it was", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "no WAL was started", file: file, line: line)
    }

    func testAFileThatIsNotSQLiteIsRefusedAndLeftAlone() throws {
        let path = dir + "/notes.db"
        try Data(String(repeating: "meeting notes, not a database\n", count: 200).utf8).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, kind: .notADatabase)
    }

    func testAnotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let path = dir + "/other.db"
        do {
            let other = try Database(path: path, mode: .create)
            try other.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
        }
        try assertRefused(path, kind: .foreign)
    }

    func testADatastoreFromANewerKeyshapeIsRefusedAndLeftAlone() throws {
        let path = dir + "/newer.db"
        do {
            let store = try Datastore(path: path, create: true)
            try store.record([finding("a.txt", line: 1)], run: try start(store))
        }
        do {
            // Back to a rollback journal, so the file on disk is the whole database.
            let raw = try Database(path: path, mode: .readWrite)
            _ = try raw.integer("PRAGMA journal_mode=DELETE")
            try raw.execute("PRAGMA user_version = 99")
        }
        try assertRefused(path, kind: .newerSchema)
    }

    func testADamagedDatastoreIsAnErrorNotATrap() throws {
        let path = dir + "/damaged.db"
        do {
            let store = try Datastore(path: path, create: true)
            try store.record((1...300).map { finding("f\($0).txt", line: $0) }, run: try start(store))
        }
        do {
            let raw = try Database(path: path, mode: .readWrite)
            _ = try raw.integer("PRAGMA journal_mode=DELETE")
        }
        var bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        XCTAssertGreaterThan(bytes.count, 8192)
        // Overwrite every page after the first two with noise: the schema is readable, the tables are not.
        for i in 8192..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 131) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let store = try Datastore(readingAt: path)
            XCTAssertThrowsError(try store.findings()) { error in XCTAssertTrue(error is DatastoreError) }
        } catch {
            XCTAssertTrue(error is DatastoreError, "\(error)")
        }
    }

    func testANewDatastoreCarriesTheMarkerAndVersion() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        XCTAssertEqual(store.schemaVersion, 6)
        let raw = try Database(path: dir + "/d.db", mode: .readOnly)
        XCTAssertEqual(try raw.integer("PRAGMA application_id"), 0x4B53_4844)
        XCTAssertEqual(try raw.prepare("PRAGMA journal_mode").rows { $0.text(0) }, ["wal"])
    }

    /// A datastore written by the first schema is migrated forward, its rows kept.
    func testAVersionOneDatastoreIsMigratedForward() throws {
        let path = dir + "/v1.db"
        do {
            let raw = try Database(path: path, mode: .create)
            try raw.execute(Schema.migrations[0])
            try raw.execute("PRAGMA user_version = 1")
            try raw.execute("PRAGMA application_id = \(Schema.marker)")
            try raw.execute("""
                INSERT INTO repositories (id, root, name) VALUES (1, '/r', 'r');
                INSERT INTO runs (id, repository_id, command, arguments, keyshape_version, rule_pack, rules_hash, started, ended)
                VALUES (1, 1, 'history', '', '0.2.0', '1', 'h', 0, 1);
                """)
        }
        let store = try Datastore(path: path, create: false)
        XCTAssertEqual(store.schemaVersion, Int64(Schema.migrations.count))
        let runs = try store.runs()
        XCTAssertEqual(runs.map(\.id), [1])
        XCTAssertEqual(runs.first?.complete, false, "a run from before the migration is no base for an incremental one")
        XCTAssertNil(try store.latestHistoryRun(root: "/r")?.tips.first)
    }

    /// A history run killed after the base moved some of the base's findings on; the next
    /// incremental run still carries every one of them.
    func testCarryForwardTakesTheBasesFindingsThatAKilledRunMovedOn() throws {
        let store = try Datastore(path: dir + "/d.db", create: true)
        let base = try start(store, command: "history")
        let all = (1...6).map { finding("f\($0).txt", line: $0, commit: String(repeating: "c", count: 40)) }
        try store.record(all, run: base)
        try store.finishRun(base, findings: 6, errors: 0, stats: ScanStats(), complete: true, tips: ["t"])
        let killed = try start(store, command: "history")
        try store.record(Array(all.prefix(3)) + [finding("new.txt", line: 9, commit: String(repeating: "d", count: 40))], run: killed)
        let next = try start(store, command: "history")
        XCTAssertEqual(try store.latestHistoryRun(root: "/repos/one")?.run.id, base, "an unfinished run is no base")
        try store.carryForward(from: base, to: next)
        XCTAssertEqual(Set(try store.findings(FindingFilter(lastSeenRun: next)).map(\.finding)), Set(all),
                       "all of the base's findings, and not the one only the killed run saw")
    }
}
