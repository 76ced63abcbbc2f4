import Foundation
import XCTest
import TestSupport

/// No field of a report lets its reader confirm a guessed value offline: the secret hash is
/// keyed with a key the reader lacks (a run's random key, the user's, the datastore's), the
/// fingerprint holds no value, and a baseline's value checks are keyed with the baseline's own
/// key. Baselines and fingerprints still work across runs and machines.
final class GuessConfirmationTests: XCTestCase {
    let weak = "Summer2024!"

    func findings(_ r: Run) -> [[String: Any]] {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return object?["findings"] as? [[String: Any]] ?? []
    }

    func field(_ r: Run, _ name: String) -> [String] { findings(r).compactMap { $0[name] as? String } }

    func scan(_ args: [String], env: [String: String]? = nil) -> Run {
        keyshape(["scan"] + args + ["--format", "json", "--no-progress", "--no-config"], env: env)
    }

    func testSecretHashIsKeyedAndTheFingerprintHoldsNoValue() {
        let tmp = TempDir()
        tmp.write("tree/app.env", "DB_PASSWORD=\(weak)\n")
        let one = scan([tmp.path + "/tree"]), two = scan([tmp.path + "/tree"])
        XCTAssertEqual(one.status, 1, one.stderr)
        assertNoFragment(of: weak, in: one.stdout + one.stderr, "output")
        XCTAssertEqual(field(one, "secretHash").count, 1)
        // No salt everybody has: two runs without a key hash the same value differently.
        XCTAssertNotEqual(field(one, "secretHash"), field(two, "secretHash"), "a run without a key has its own random key")
        // The fingerprint is the same on every run and machine (it names the place).
        XCTAssertEqual(field(one, "fingerprint"), field(two, "fingerprint"))
        // And does not change with the value: it holds none.
        let other = "Winter2025?"
        tmp.write("tree/app.env", "DB_PASSWORD=\(other)\n")
        XCTAssertEqual(field(scan([tmp.path + "/tree"]), "fingerprint"), field(one, "fingerprint"))
        // With the user's key, hashes agree across runs (and differ from another key's).
        let keyed = ["KEYSHAPE_HASH_KEY": "team-key"]
        tmp.write("tree/app.env", "DB_PASSWORD=\(weak)\n")
        let k1 = scan([tmp.path + "/tree"], env: keyed), k2 = scan([tmp.path + "/tree"], env: keyed)
        XCTAssertEqual(field(k1, "secretHash"), field(k2, "secretHash"))
        XCTAssertNotEqual(field(k1, "secretHash"), field(scan([tmp.path + "/tree"], env: ["KEYSHAPE_HASH_KEY": "other"]), "secretHash"))
    }

    /// Two values of one rule in one file: two fingerprints; moved lines keep them; the same
    /// value twice shares one (and one secret hash).
    func testFingerprintsTellValuesApartAndSurviveMovedLines() {
        let tmp = TempDir()
        let a = canary("fpAa1"), b = canary("fpBb2")
        tmp.write("tree/k.txt", "token = \(a)\ntoken = \(b)\ntoken = \(a)\n")
        let first = scan([tmp.path + "/tree"])
        let fps = field(first, "fingerprint")
        XCTAssertEqual(fps.count, 3, first.stdout)
        XCTAssertEqual(Set(fps).count, 2, "two values, two fingerprints; the repeat shares its value's")
        XCTAssertEqual(fps[0], fps[2])
        XCTAssertEqual(field(first, "secretHash")[0], field(first, "secretHash")[2])
        tmp.write("tree/k.txt", "\n\n# moved\ntoken = \(a)\n\ntoken = \(b)\n")
        XCTAssertEqual(Set(field(scan([tmp.path + "/tree"]), "fingerprint")), Set(fps))
    }

    /// A baseline written in one run (its own key inside, never printed) matches in another
    /// process, keeps matching when lines move, and does not cover a new value put at the
    /// place of a baselined one.
    func testBaselineWrittenInOneRunMatchesInAnotherButNotANewValue() throws {
        let tmp = TempDir()
        let fake = canary("fakeK1"), real = canary("realK2")
        tmp.write("tree/test/fixture.txt", "token = \(fake)\n")
        let baseline = tmp.path + "/baseline.json"
        let written = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--write-baseline", baseline])
        XCTAssertEqual(written.status, 1, written.stderr)
        let text = tmp.read("baseline.json")
        assertNoFragment(of: fake, in: text, "baseline")
        let object = JSONReport.object(text)
        XCTAssertEqual(object?["version"] as? Int, 2)
        XCTAssertEqual((object?["key"] as? String)?.count, 64)
        XCTAssertFalse(written.stdout.contains(object?["key"] as? String ?? "-"), "the key is never printed")

        tmp.write("tree/test/fixture.txt", "\n# moved down\ntoken = \(fake)\n")
        let quiet = scan([tmp.path + "/tree", "--baseline", baseline])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)

        tmp.write("tree/test/fixture.txt", "\n# moved down\ntoken = \(real)\n")
        let caught = scan([tmp.path + "/tree", "--baseline", baseline])
        XCTAssertEqual(caught.status, 1, "a real key at a baselined fake's place is reported: \(caught.stderr)")
        assertNoFragment(of: real, in: caught.stdout + caught.stderr, "output")
    }

    /// A fingerprint copied by hand from a report into a baseline suppresses that place.
    func testHandWrittenFingerprintEntryStillWorks() {
        let tmp = TempDir()
        tmp.write("tree/a.txt", "token = \(canary("handW1"))\n")
        let fp = field(scan([tmp.path + "/tree"]), "fingerprint")[0]
        tmp.write("b.json", #"{"tool": "keyshape", "version": 2, "key": "\#(String(repeating: "ab", count: 32))", "findings": [{"fingerprint": "\#(fp)"}]}"#)
        XCTAssertEqual(scan([tmp.path + "/tree", "--baseline", tmp.path + "/b.json"]).status, 0)
    }

    /// The same file's fingerprints under scan, staged and history.
    func testScanStagedAndHistoryGiveOneFingerprintPerValue() {
        let repo = GitFixture()
        let a = canary("parA1"), b = canary("parB2")
        repo.write("old.txt", "token = \(a)\n")
        repo.commit("one")
        repo.write("old.txt", "token = \(a)\ntoken = \(b)\n")
        repo.git(["add", "-A"])
        let staged = keyshapeJSON(["staged", repo.path, "--no-config"], secrets: [a, b])
        repo.commit("two")
        let history = keyshapeJSON(["history", repo.path, "--no-config"], secrets: [a, b])
        let scanned = keyshapeJSON(["scan", repo.path, "--no-config"], secrets: [a, b])
        XCTAssertEqual(scanned.findings.count, 2)
        XCTAssertEqual(staged.findings.count, 1, "only the added line")
        XCTAssertEqual(history.findings.count, 2)
        XCTAssertEqual(Set(history.findings.map(\.fingerprint)), Set(scanned.findings.map(\.fingerprint)))
        XCTAssertTrue(scanned.findings.map(\.fingerprint).contains(staged.findings[0].fingerprint),
                      "the staged value keeps the ordinal it has in the file, not 0")
    }
}
