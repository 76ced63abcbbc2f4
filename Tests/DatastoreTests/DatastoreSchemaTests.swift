@testable import Datastore
import Foundation
import ScanCore
import TestSupport
import XCTest

/// A datastore whose schema keyshape did not make (a planted trigger, view, index or table,
/// a changed or missing one) is refused by every command, and left byte for byte as it was;
/// one at an older version of keyshape's own schema still opens and is brought up to date.
final class DatastoreSchemaTests: XCTestCase {
    /// A datastore keyshape made, back on a rollback journal (so the file on disk is the whole
    /// database), with `tamper` then run on it.
    func datastore(_ scratch: TempDir, _ name: String, tamper: String?) throws -> String {
        let path = scratch.path + "/" + name
        do {
            let store = try Datastore(path: path, create: true)
            let run = try store.beginRun(RunStart(command: "scan", arguments: [], keyshapeVersion: "0", rulePack: "1",
                                                  rulesHash: "h", repository: RepositoryRef(root: "/repos/one")))
            var location = Location(kind: .file, path: "a.txt", byteOffset: 0, byteLength: 20)
            location.line = 1; location.column = 1
            try store.record([Finding(rule: "r", description: "R", fingerprint: "fp-a", secretHash: "00aa00aa00aa00aa", location: location)], run: run)
        }
        let raw = try Database(path: path, mode: .readWrite)
        _ = try raw.integer("PRAGMA journal_mode=DELETE")
        if let tamper { try raw.execute(tamper) }
        return path
    }

    static let tampering: [(String, String)] = [
        ("a trigger", "CREATE TRIGGER vanish AFTER INSERT ON findings BEGIN DELETE FROM findings; END"),
        ("a view", "CREATE VIEW open_findings AS SELECT * FROM findings"),
        ("an extra index", "CREATE INDEX findings_rule ON findings(rule) WHERE rule <> 'r'"),
        ("an extra table", "CREATE TABLE notes (x TEXT)"),
        ("an added column", "ALTER TABLE findings ADD COLUMN extra TEXT"),
        ("a dropped index", "DROP INDEX findings_secret_hash"),
        ("a changed table", """
            DROP TABLE triage;
            CREATE TABLE triage (fingerprint TEXT PRIMARY KEY, status TEXT NOT NULL, note TEXT, time REAL NOT NULL)
            """),
    ]

    func testEveryObjectKeyshapeDidNotCreateIsRefusedAndTheFileLeftAlone() throws {
        let scratch = TempDir()
        XCTAssertNoThrow(try Datastore(readingAt: try datastore(scratch, "clean.db", tamper: nil)), "keyshape's own schema opens")
        for (n, (what, sql)) in Self.tampering.enumerated() {
            let path = try datastore(scratch, "t\(n).db", tamper: sql)
            let before = try XCTUnwrap(FileManager.default.contents(atPath: path))
            XCTAssertThrowsError(try Datastore(path: path, create: true), what) { error in
                XCTAssertEqual((error as? DatastoreError)?.kind, .tampered, "\(what): \(error)")
            }
            XCTAssertThrowsError(try Datastore(path: path, create: false), what)
            XCTAssertThrowsError(try Datastore(readingAt: path), what)
            XCTAssertEqual(FileManager.default.contents(atPath: path), before, "\(what): the file is left as it was")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "\(what): no WAL was started")
        }
    }

    func testTheMessageNamesTheKindNeverANameFromTheFile() throws {
        let scratch = TempDir()
        let path = try datastore(scratch, "d.db", tamper: "CREATE TRIGGER \"sk_live_NAME\" AFTER INSERT ON findings BEGIN DELETE FROM findings; END")
        XCTAssertThrowsError(try Datastore(readingAt: path)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("an added trigger"), message)
            XCTAssertFalse(message.contains("sk_live_NAME"), message)
        }
    }

    /// Each released version's schema, made by its own migrations, is keyshape's: it opens for
    /// reading as it is, and a writer brings it up to date.
    func testAnOlderVersionOfKeyshapesOwnSchemaStillOpens() throws {
        let scratch = TempDir()
        for version in 1..<Schema.migrations.count {
            let path = scratch.path + "/v\(version).db"
            do {
                let raw = try Database(path: path, mode: .create)
                for migration in Schema.migrations.prefix(version) { try raw.execute(migration) }
                try raw.execute("PRAGMA user_version = \(version); PRAGMA application_id = \(Schema.marker)")
            }
            XCTAssertEqual(try Datastore(readingAt: path).schemaVersion, Int64(version))
            XCTAssertEqual(try Datastore(path: path, create: false).schemaVersion, Schema.currentVersion)
        }
    }

    /// Behind the schema check: a connection fires no trigger and runs no view, whatever the
    /// file holds (keyshape creates neither).
    func testAConnectionFiresNoTriggerAndRunsNoView() throws {
        let scratch = TempDir()
        let raw = try Database(path: scratch.path + "/plain.db", mode: .create)
        try raw.execute("""
            CREATE TABLE t (x INTEGER); CREATE TABLE log (x INTEGER);
            CREATE TRIGGER copy AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.x); END;
            CREATE VIEW v AS SELECT x FROM t;
            INSERT INTO t VALUES (1)
            """)
        XCTAssertEqual(try raw.integer("SELECT count(*) FROM log"), 0, "the trigger did not fire")
        XCTAssertThrowsError(try raw.integer("SELECT count(*) FROM v"), "views are off")
    }

    /// The case as it was found: findings recorded into a datastore with a planted trigger
    /// vanished and `report` exited 0. Now every command refuses it.
    func testCommandsRefuseADatastoreWithAPlantedTrigger() throws {
        let scratch = TempDir()
        scratch.write("rules.toml", TestSecrets.rule)
        scratch.write("src/config.env", "TOKEN=\(TestSecrets.make())\n")
        scratch.write("empty/README", "nothing here\n")
        let db = scratch.path + "/d.db"
        XCTAssertEqual(CLI.keyshape(["scan", scratch.path + "/empty", "--datastore", db, "--no-progress"]).status, 0)
        do {
            let raw = try Database(path: db, mode: .readWrite)
            _ = try raw.integer("PRAGMA journal_mode=DELETE")
            try raw.execute("CREATE TRIGGER vanish AFTER INSERT ON findings BEGIN DELETE FROM findings; END")
        }
        let before = try XCTUnwrap(scratch.bytes("d.db"))
        for args in [["scan", scratch.path + "/src", "--rules", scratch.path + "/rules.toml", "--no-builtin-rules", "--no-progress"],
                     ["report"], ["summarize"], ["triage", "0123456789abcdef", "--status", "accepted"]] {
            let r = CLI.keyshape(args + ["--datastore", db])
            XCTAssertEqual(r.status, 2, "\(args[0]): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("d.db: the datastore's schema is not the one keyshape creates (an added trigger)"), r.stderr)
            XCTAssertEqual(r.stdout, "", args[0])
            XCTAssertEqual(scratch.bytes("d.db"), before, "\(args[0]) left the file as it was")
        }
    }
}
