import Datastore
import Foundation
import XCTest
import TestSupport

/// Without a key of the user's, a datastore hashes under a random key of its own, kept in the
/// file and never printed: its findings group by secret across its runs, a report made from it
/// confirms no guessed value, and a triage decision covers the values it was made on only.
final class DatastoreKeyTests: XCTestCase {
    func lines(_ r: CLI.Run) -> [[String: Any]] {
        r.reportLines
    }

    func testTheDatastoresKeyGroupsAcrossRunsAndIsNeverPrinted() throws {
        let fixture = HistoryCase(commits: 3, perCommit: 1)
        let (scratch, repo, db) = (fixture.scratch, fixture.repo, fixture.db)
        let args = fixture.args(["--format", "jsonl"])
        let first = CLI.keyshape(args + ["--datastore", db], hashKey: nil)
        let second = CLI.keyshape(args + ["--datastore", scratch.path + "/other.db"], hashKey: nil)
        let again = CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"], hashKey: nil)
        let plain = CLI.keyshape(args, hashKey: nil)
        let hashes = { (r: CLI.Run) in Set(self.lines(r).compactMap { $0["secretHash"] as? String }) }
        XCTAssertEqual(hashes(first).count, 3, first.stderr)
        XCTAssertEqual(hashes(first), hashes(again), "the datastore's report keeps the run's hashes")
        XCTAssertTrue(hashes(first).isDisjoint(with: hashes(second)), "another datastore, another key")
        XCTAssertTrue(hashes(first).isDisjoint(with: hashes(plain)), "a run without a datastore has a key of its own")
        let fingerprints = { (r: CLI.Run) in Set(self.lines(r).compactMap { $0["fingerprint"] as? String }) }
        XCTAssertEqual(fingerprints(first).count, 3, "each value its own fingerprint, across commits too")
        // Triage by secret hash (as `summarize` groups them): every place of that one secret.
        let secret = try XCTUnwrap(lines(first).first?["secretHash"] as? String)
        let places = lines(first).filter { $0["secretHash"] as? String == secret }.count
        let triaged = CLI.keyshape(["triage", "--datastore", db, secret, "--status", "revoked"], hashKey: nil)
        XCTAssertEqual(triaged.status, 0, triaged.stderr)
        XCTAssertTrue(triaged.stderr.contains("(\(places) finding"), triaged.stderr)
        let open = CLI.keyshape(["report", "--datastore", db, "--format", "jsonl"], hashKey: nil)
        XCTAssertFalse(lines(open).contains { $0["secretHash"] as? String == secret }, "no longer open")
        XCTAssertEqual(CLI.keyshape(["triage", "--datastore", db, "0000000000000000", "--status", "revoked"], hashKey: nil).status, 2)
        for r in [first, again] { for secret in repo.secrets { TestSecrets.assertNoFragment(of: secret, in: Data((r.stdout + r.stderr).utf8), "report") } }
    }
}
