import XCTest
@testable import ScanRules

final class EntropyTests: XCTestCase {
    func testKnownValues() {
        XCTAssertEqual(Entropy.shannon(""), 0)
        XCTAssertEqual(Entropy.shannon("aaaa"), 0)
        XCTAssertEqual(Entropy.shannon("ab"), 1, accuracy: 1e-9)
        XCTAssertEqual(Entropy.shannon("abcd"), 2, accuracy: 1e-9)
        XCTAssertEqual(Entropy.shannon("0123456789abcdef"), 4, accuracy: 1e-9)
        XCTAssertLessThan(Entropy.shannon("changeme"), 3.0)
    }
}
