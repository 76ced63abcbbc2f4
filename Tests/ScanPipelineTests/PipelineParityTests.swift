import Foundation
import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// Every input goes through the one per-buffer pipeline, so the same Mach-O gives the same
/// findings whichever command scans it: same sections, offsets, secret hashes and
/// fingerprints under `scan`, `staged` and `history`, UTF-16 text included, and a baseline
/// written by `scan` silences them in the other two.
final class PipelineParityTests: XCTestCase {
    /// The committed iOS object file (Fixtures/binaries, made by make-fixtures.sh with clang
    /// for arm64-apple-ios): canaries in __DATA,__data and __TEXT,__const, one of them as
    /// UTF-16LE text.
    static let fixture = FileScanFuzzSeedTests.root.appendingPathComponent("Fixtures/binaries/macho/keys-arm64-ios.o")

    struct Seen: Hashable, CustomStringConvertible {
        var rule, format, arch, section, fingerprint, secretHash: String
        var fileOffset, byteOffset, byteLength: Int
        var description: String { "\(rule) \(section)+\(fileOffset) len \(byteLength) [\(fingerprint)]" }
    }

    static func seen(_ findings: [Finding]) -> Set<Seen> {
        Set(findings.map { f in
            let l = f.location
            return Seen(rule: f.rule, format: l.format ?? "-", arch: l.arch ?? "-", section: l.section ?? "-",
                        fingerprint: f.fingerprint, secretHash: f.secretHash,
                        fileOffset: l.fileOffset ?? -1, byteOffset: l.byteOffset, byteLength: l.byteLength)
        })
    }

    func makeRepository(_ tree: TempDir) throws -> String {
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        tree.write("repo/App.o", try Data(contentsOf: PipelineParityTests.fixture))
        try TestGit.run(repo, ["add", "-A"])
        return repo
    }

    func options(_ configure: (inout ScanOptions) -> Void = { _ in }) -> ScanOptions {
        var options = ScanOptions(jobs: 2)
        options.hashKey = "test"
        configure(&options)
        return options
    }

    func testMachOFindingsAndFingerprintsAgreeUnderScanStagedAndHistory() throws {
        let tree = TempDir()
        let repo = try makeRepository(tree)
        let rules = TestRules.set()

        let scanned = Scanner(ruleSet: rules, options: options()).scan(paths: [repo]).result
        let staged = try StagedScanner(ruleSet: rules, options: options()).scan(repository: repo).result
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "app"])
        let history = try HistoryScanner(ruleSet: rules, options: options(), history: HistoryOptions()).scan(repository: repo).result
        for (name, result) in [("scan", scanned), ("staged", staged), ("history", history)] {
            XCTAssertEqual(result.issues, [], name)
        }

        let expected = PipelineParityTests.seen(scanned.findings)
        // The ASCII canaries and the UTF-16 one, each in its section of the arm64 slice.
        XCTAssertEqual(Set(expected.map(\.section)), ["__DATA,__data", "__TEXT,__const"], "\(expected)")
        XCTAssertTrue(expected.allSatisfy { $0.format == "mach-o" && $0.arch == "arm64" }, "\(expected)")
        let utf16 = expected.filter { $0.byteLength == 2 * ("TEST_SECRET_MUST_NEVER_" + "LEAK_Utf16Literal").utf8.count }
        XCTAssertEqual(utf16.map(\.fileOffset), [706], "the UTF-16 canary where llvm-objdump puts it (Fixtures/binaries/expected.tsv)")
        XCTAssertEqual(expected.count, 3, "\(expected)")

        XCTAssertEqual(PipelineParityTests.seen(staged.findings), expected, "staged")
        XCTAssertEqual(PipelineParityTests.seen(history.findings), expected, "history")
        XCTAssertTrue(staged.findings.allSatisfy { $0.location.kind == .staged })
        XCTAssertTrue(history.findings.allSatisfy { $0.location.kind == .commit })
        // Printed as binaries everywhere, never `path:0:0`.
        for f in staged.findings + history.findings {
            XCTAssertTrue(f.location.text.contains("App.o:arm64:__"), f.location.text)
        }
    }

    func testABaselineWrittenByScanSilencesStagedAndHistory() throws {
        let tree = TempDir()
        let repo = try makeRepository(tree)
        let rules = TestRules.set()
        let scanned = Scanner(ruleSet: rules, options: options()).scan(paths: [repo]).result
        XCTAssertEqual(scanned.findings.count, 3)
        let baseline = Set(scanned.findings.map(\.fingerprint))

        let staged = try StagedScanner(ruleSet: rules, options: options { $0.baseline = baseline }).scan(repository: repo).result
        XCTAssertEqual(staged.findings, [], "staged")
        XCTAssertEqual(staged.stats.suppressed.baseline, 3, "staged")
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "app"])
        let history = try HistoryScanner(ruleSet: rules, options: options { $0.baseline = baseline }, history: HistoryOptions())
            .scan(repository: repo).result
        XCTAssertEqual(history.findings, [], "history")
        XCTAssertEqual(history.stats.suppressed.baseline, 3, "history")
    }

    /// Big-endian UTF-16 text that no zero byte follows: read as little-endian it would lose
    /// its last character (and a secret ending there), so it is read as big-endian, at the
    /// zero byte that starts it.
    func testUTF16BigEndianTextIsFoundWhole() throws {
        let tree = TempDir()
        var bytes = [UInt8](repeating: 0xff, count: 64)
        let at = bytes.count
        for ch in TestRules.canary.utf8 { bytes += [0, ch] }
        bytes += [0xff, 0xfe, 0x01, 0x02] + [UInt8](repeating: 0xff, count: 32)
        tree.write("be.bin", Data(bytes))
        let result = runScan([tree.path])
        XCTAssertEqual(result.findings.map(\.location.byteOffset), [at])
        XCTAssertEqual(result.findings.map(\.location.byteLength), [2 * TestRules.canary.utf8.count])
        XCTAssertEqual(result.findings.first?.location.format, "raw")
    }
}
