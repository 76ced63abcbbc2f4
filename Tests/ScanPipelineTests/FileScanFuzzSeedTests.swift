import Foundation
import FuzzChecks
import XCTest
import TestSupport

/// Replays every committed file-scan fuzz seed (and every crash input added after a fix)
/// through exactly the scan and checks of the libFuzzer harness (FileScanFuzzer), with the
/// checkout's rule pack, so CI covers them without libFuzzer. The object-file seeds are
/// replayed here too: the harness is seeded with them.
final class FileScanFuzzSeedTests: XCTestCase {
    static let root = Checkout.root

    func testEverySeedIsScannedAsTheHarnessRequires() throws {
        let check = try FileScanCheck(rulesFolder: Self.root.appendingPathComponent("Rules").path)
        defer { check.remove() }
        var count = 0
        for folder in ["files", "macho", "elf"] {
            let directory = Self.root.appendingPathComponent("Fixtures/fuzz").appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
            XCTAssertFalse(names.isEmpty, folder)
            for name in names {
                let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                XCTAssertEqual(check.problems(bytes), [], "\(folder)/\(name)")
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 150)
    }

    /// The seeds reach matching: text, printable runs in a binary, UTF-16 and a planted
    /// object file each give findings with the builtin rules (a harness whose inputs never
    /// match would explore nothing past the prefilter).
    func testSeedsReachMatchingOnEveryPath() throws {
        let check = try FileScanCheck(rulesFolder: Self.root.appendingPathComponent("Rules").path)
        defer { check.remove() }
        let files = Self.root.appendingPathComponent("Fixtures/fuzz/files")
        for name in ["text-anthropic-1.txt", "strings-stripe.bin", "utf16-github.bin", "object-elf-keys-x86_64"] {
            let bytes = [UInt8](try Data(contentsOf: files.appendingPathComponent(name)))
            let findings = check.scan(bytes).findings
            XCTAssertFalse(findings.isEmpty, name)
        }
    }

    /// The check itself can fail: a finding placed outside the file, or a report quoting
    /// the secret, is a problem.
    func testTheCheckCatchesMisplacedFindingsAndLeaks() throws {
        let check = try FileScanCheck(rulesFolder: Self.root.appendingPathComponent("Rules").path)
        defer { check.remove() }
        let bytes = [UInt8](try Data(contentsOf: Self.root.appendingPathComponent("Fixtures/fuzz/files/text-canary-1.txt")))
        var result = check.scan(bytes)
        XCTAssertFalse(result.findings.isEmpty)
        XCTAssertEqual(check.check(result, bytes: bytes), [])
        var moved = result
        moved.findings[0].location.line = (moved.findings[0].location.line ?? 0) + 1
        XCTAssertFalse(check.check(moved, bytes: bytes).isEmpty)
        let l = result.findings[0].location
        result.findings[0].description = String(decoding: bytes[l.byteOffset..<(l.byteOffset + l.byteLength)], as: UTF8.self)
        XCTAssertTrue(check.check(result, bytes: bytes).contains { $0.contains("holds the secret") })
    }
}
