import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline

/// The matcher knows bytes only: a buffer scanned once without a place carries what its
/// path and commit conditions still need, and is settled for any place without being
/// scanned again (what lets history drop its second `git cat-file`).
final class ContextSettlingTests: XCTestCase {
    func testOneScanSettlesForEveryPathAndCommit() throws {
        let file = try RuleLoader.load(text: """
        [[rules]]
        id = "only-config"
        regex = '''\\b(cfg_[a-z0-9]{12})\\b'''
        keywords = ["cfg_"]
        path = '''(^|/)config/'''
        [[rules]]
        id = "anywhere"
        regex = '''\\b(any_[a-z0-9]{12})\\b'''
        keywords = ["any_"]
        [[allowlists]]
        paths = ['''^vendor/''']
        regexes = ['''^any_''']
        condition = "AND"
        [[allowlists]]
        commits = ["abc123"]
        """, file: "t.toml")
        let ruleSet = RuleSet(rules: file.rules, allowlists: file.allowlists)
        let pipeline = BufferPipeline(ruleSet: ruleSet, options: ScanOptions(jobs: 1))
        var bytes = Array("a = cfg_7f3k9q2m8x4w\nb = any_7f3k9q2m8x4w\n".utf8)
        var found: [BufferFinding] = []
        bytes.withUnsafeMutableBytes { buffer in
            pipeline.scan(whole: UnsafeRawBufferPointer(buffer), hashSecrets: false, onFinding: { found.append($0) }, onFailure: { XCTFail("\($0)") })
        }
        XCTAssertEqual(found.count, 2)
        XCTAssertTrue(found.allSatisfy { $0.pending != nil }, "both depend on the place")
        let scratch = ruleSet.makeScratch()
        func outcome(_ rule: String, _ path: String?, _ commit: String? = nil) -> DeferredChecks.Outcome {
            // (A missing finding fails above; no trap here, so the rest of the suite still runs.)
            guard let f = found.first(where: { ruleSet.rules[$0.ruleIndex].id == rule }), let pending = f.pending else { return .drop }
            return ruleSet.settle(pending, ruleIndex: f.ruleIndex, path: path, commit: commit, scratch: scratch, onFailure: { XCTFail("\($0)") })
        }
        XCTAssertEqual(outcome("only-config", "app/config/x.yml"), .report)
        XCTAssertEqual(outcome("only-config", "app/x.yml"), .drop, "the rule's path filter")
        XCTAssertEqual(outcome("only-config", nil), .report, "no path: the rule runs, as it did without one")
        XCTAssertEqual(outcome("anywhere", "src/a.txt"), .report)
        XCTAssertEqual(outcome("anywhere", "vendor/a.txt"), .allowlisted, "path AND bytes")
        XCTAssertEqual(outcome("anywhere", "src/a.txt", "abc1234567"), .allowlisted, "commit prefix")
        XCTAssertEqual(outcome("anywhere", nil), .report)
    }
}
