import Datastore
import Foundation
import TestSupport
import XCTest

/// A `--datastore` path that is not a regular file (a FIFO, a folder), or a FIFO where sqlite
/// keeps its journal beside the datastore, is refused at once with exit 2: sqlite's plain
/// open(2) of a FIFO used to block `report` forever. Bounded: each run is stopped after 20 s.
final class DatastoreSpecialFileTests: XCTestCase {
    func run(_ args: [String]) -> (ChildOutcome, String) {
        let child = try! runChild(CLI.binary, args, environment: CLI.environment(), timeout: 20)
        return (child, args.first ?? "")
    }

    func makeFIFO(_ path: String) {
        XCTAssertEqual(mkfifo(path, 0o600), 0, "mkfifo")
    }

    func testAFIFOOrAFolderAsTheDatastoreIsRefusedWithoutBlocking() throws {
        let scratch = TempDir()
        scratch.write("src/a.txt", "nothing\n")
        let fifo = scratch.path + "/fifo.db"
        makeFIFO(fifo)
        try FileManager.default.createDirectory(atPath: scratch.path + "/folder.db", withIntermediateDirectories: true)
        for (db, kind) in [(fifo, "a FIFO"), (scratch.path + "/folder.db", "a folder")] {
            for args in [["report"], ["summarize"], ["scan", scratch.path + "/src", "--no-progress"],
                         ["triage", "0123456789abcdef", "--status", "accepted"]] {
                let (child, what) = run(args + ["--datastore", db])
                XCTAssertFalse(child.timedOut, "\(what) on \(kind) blocked")
                XCTAssertEqual(child.status, 2, "\(what) on \(kind): \(child.stderrText)")
                XCTAssertTrue(child.stderrText.contains("the datastore is \(kind), not a regular file"), child.stderrText)
                XCTAssertEqual(child.stdoutText, "", "\(what): nothing scanned or reported")
            }
        }
    }

    func testAFIFOWhereSqliteKeepsItsJournalIsRefusedWithoutBlocking() throws {
        let scratch = TempDir()
        scratch.write("empty/README", "nothing here\n")
        let db = scratch.path + "/d.db"
        let made = CLI.keyshape(["scan", scratch.path + "/empty", "--datastore", db, "--no-progress"])
        XCTAssertEqual(made.status, 0, made.stderr)
        // Checkpointed into the file and back on a rollback journal, so the journal's name is
        // the one sqlite opens.
        do {
            let raw = try Database(path: db, mode: .readWrite)
            _ = try raw.integer("PRAGMA journal_mode=DELETE")
        }
        for suffix in ["-journal", "-wal"] {
            makeFIFO(db + suffix)
            for args in [["report"], ["scan", scratch.path + "/empty", "--no-progress"]] {
                let (child, what) = run(args + ["--datastore", db])
                XCTAssertFalse(child.timedOut, "\(what) with a \(suffix) FIFO blocked")
                XCTAssertEqual(child.status, 2, "\(what) with a \(suffix) FIFO: \(child.stderrText)")
                XCTAssertTrue(child.stderrText.contains("the file sqlite keeps beside it (\(suffix)) is a FIFO"), child.stderrText)
            }
            try FileManager.default.removeItem(atPath: db + suffix)
        }
        XCTAssertEqual(CLI.keyshape(["report", "--datastore", db]).status, 0, "the datastore itself is sound")
    }
}
