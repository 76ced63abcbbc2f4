import Foundation
import FuzzChecks
import XCTest
import TestSupport

/// Replays every committed decoders fuzz seed (and any crash input added after a fix)
/// through DecodersCheck, the harness's own checks, so CI covers them without libFuzzer.
final class DecodersFuzzSeedTests: XCTestCase {
    func testEverySeedPassesTheHarnessChecks() throws {
        let folder = Checkout.url("Fixtures/fuzz/decoders")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 8)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            XCTAssertEqual(DecodersCheck.problems(bytes), [], name)
        }
    }

    func testTheChecksCatchWhatTheyLookFor() {
        // Trivial inputs pass: the checks are not vacuous failures.
        XCTAssertEqual(DecodersCheck.problems([]), [])
        XCTAssertEqual(DecodersCheck.problems(Array("plain".utf8)), [])
    }
}
