import Foundation
import XCTest
import TestSupport

/// Release 0.2's baselines keep loading: the project's own self-audit baseline in 0.2's form
/// (fingerprints made from PBKDF2 hashes of the values, no key) still suppresses the fake
/// literals of this repository's history it listed, matched through 0.2's fingerprint computed
/// for that purpose only and never printed.
final class LegacyBaselineTests: XCTestCase {
    func testReleaseZeroPointTwosSelfAuditBaselineStillMatches() throws {
        let old = Repo.path("Fixtures/self-audit/history-baseline-v1.json")
        let r = keyshape(["history", Repo.root.path, "--config", Repo.path(".keyshape.toml"), "--baseline", old,
                          "--format", "json", "--no-progress"], env: ProcessInfo.processInfo.environment.filter { $0.key != "KEYSHAPE_HASH_KEY" })
        XCTAssertTrue([0, 1].contains(r.status), r.stderr)
        let object = try XCTUnwrap(r.report)
        let suppressed = (object["stats"] as? [String: Any])?["suppressed"] as? [String: Int]
        XCTAssertGreaterThanOrEqual(suppressed?["baseline"] ?? 0, 6, "0.2's entries match: \(r.stderr)")
        let text = try String(contentsOfFile: old, encoding: .utf8)
        for f in (object["findings"] as? [[String: Any]]) ?? [] {
            XCTAssertFalse(text.contains(f["fingerprint"] as? String ?? "-"), "a listed finding is not reported")
        }
    }
}
