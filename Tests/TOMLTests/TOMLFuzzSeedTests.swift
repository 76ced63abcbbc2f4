import Foundation
import FuzzChecks
import XCTest
import TestSupport

/// Replays every committed TOML fuzz seed (and every crash input added after a fix) through
/// exactly the checks of the libFuzzer harness (TOMLFuzzer), so CI covers them without
/// libFuzzer: the reader, the round trip, and the rule and config loader on top.
final class TOMLFuzzSeedTests: XCTestCase {
    static let seeds = Checkout.url("Fixtures/fuzz/toml")

    func testEverySeedIsHandledAsTheHarnessRequires() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.seeds.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 7)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.seeds.appendingPathComponent(name)))
            XCTAssertEqual(TOMLInputCheck.problems(bytes), [], name)
        }
    }

    /// The check itself can fail: an error position outside the document is a problem. A
    /// document that does not parse, used as input, gives no problem.
    func testTheCheckAcceptsErrorsInsideTheDocument() {
        XCTAssertEqual(TOMLInputCheck.problems(Array("a = [1,\n".utf8)), [])
        XCTAssertEqual(TOMLInputCheck.problems([0xFF, 0x0A]), [])
    }
}
