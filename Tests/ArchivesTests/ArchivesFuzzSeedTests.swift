import Foundation
import XCTest
import Archives

/// Replays the committed archive seeds (and any crash input added after a fix) through the
/// harness's own checks, so CI covers them without libFuzzer.
final class ArchivesFuzzSeedTests: XCTestCase {
    static let seeds = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz/archives")

    func testEverySeedReadsWithinTheLimits() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.seeds.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10)
        var members = 0
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.seeds.appendingPathComponent(name)))
            members += ArchivesFuzzChecks.check(bytes)
        }
        // The ten archives the seed script writes hold readable members (crash inputs may not).
        XCTAssertGreaterThanOrEqual(members, 10)
    }

    /// Each seed is the kind its name says, so the fuzzer really starts from every parser.
    func testSeedsCoverEveryKind() throws {
        var kinds = Set<ArchiveKind>()
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.seeds.path) {
            if let kind = ArchiveKind.sniff([UInt8](try Data(contentsOf: Self.seeds.appendingPathComponent(name)))) { kinds.insert(kind) }
        }
        XCTAssertEqual(kinds, [.zip, .tar, .ar, .gzip, .bzip2, .xz, .zstd])
    }
}
