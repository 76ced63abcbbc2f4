import Foundation
import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// History blobs over the chunk size are streamed; an app-format one is held whole for its
/// parse up to 8 chunks (`StreamedBlobScanner.holdLimit`). With 256 KiB chunks here, a 1 MiB
/// DEX is parsed (its key found in `string_data`) and a 3 MiB one, over the 2 MiB it may
/// hold, is scanned raw and is an error entry saying so: never a silent downgrade.
final class StreamedAppFormatBlobTests: XCTestCase {
    /// 70 characters, as the fixtures want (each format stores the length `F` right before it).
    let key: String = TestKeys.stripe(bodyLength: 62)

    func testADexOverTheHoldLimitIsAnErrorEntryAndOneUnderItIsParsed() throws {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        let script = Checkout.url("Fixtures/app-formats/make-app-fixtures.py").path
        let made = try runChild(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, tree.path + "/fixtures", key])
        XCTAssertEqual(made.status, 0, made.stderrText)
        let dex = try Data(contentsOf: URL(fileURLWithPath: tree.path + "/fixtures/classes.dex"))
        tree.write("repo/small.dex", dex + Data(count: 1 << 20))
        tree.write("repo/large.dex", dex + Data(count: 3 << 20))
        try TestGit.run(repo, ["add", "-A"])
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "dex"])

        var options = ScanOptions(jobs: 1)
        options.hashKey = "test"
        options.chunkSize = 256 << 10
        let scanner = HistoryScanner(ruleSet: TestRules.set(extra: """
        [[rules]]
        id = "stripe-live-secret-key"
        description = "test Stripe key"
        regex = '''\\b(sk_live_[A-Za-z0-9]{24,})\\b'''
        keywords = ["sk_live_"]
        """), options: options, history: HistoryOptions())
        let (result, _) = try scanner.scan(repository: repo)
        let small = result.findings.filter { $0.location.path == "small.dex" }
        XCTAssertEqual(small.map(\.rule), ["stripe-live-secret-key"])
        XCTAssertEqual(small.first?.location.binary?.format, "dex")
        XCTAssertEqual(small.first?.location.binary?.section, "string_data")
        XCTAssertEqual(result.findings.filter { $0.location.path == "large.dex" }.count, 0,
                       "the raw bytes read `Fsk_live_...`: only the parse finds it")
        XCTAssertEqual(result.issues.count, 1, "\(result.issues)")
        XCTAssertTrue(result.issues.first?.path.hasPrefix("large.dex") == true, "\(result.issues)")
        XCTAssertTrue(result.issues.first?.message.contains("over the 2097152 bytes a streamed blob's app-format parse may hold") == true,
                      "\(result.issues)")
    }
}
