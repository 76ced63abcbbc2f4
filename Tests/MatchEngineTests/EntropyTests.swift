import XCTest
@testable import MatchEngine

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

/// `entropy` is a strict minimum, as gitleaks means it: a secret passes when its entropy is
/// greater than the threshold, and one exactly at it is no finding.
final class EntropyThresholdTests: XCTestCase {
    func testValueExactlyAtTheThresholdIsNotReported() throws {
        let set = try rules("""
        [[rules]]
        id = "gated"
        regex = '''tok=([A-Za-z0-9]+)'''
        keywords = ["tok="]
        entropy = 3.0
        """)
        // Eight distinct bytes: exactly 3.0 bits per byte (log2 8, exact in binary floating point).
        XCTAssertEqual(Entropy.shannon("q7Zk3mPx"), 3.0)
        XCTAssertEqual(scan(set, "tok=q7Zk3mPx"), [])
        // Nine distinct bytes: log2 9 > 3, reported.
        XCTAssertGreaterThan(Entropy.shannon("q7Zk3mPxR"), 3.0)
        XCTAssertEqual(scan(set, "tok=q7Zk3mPxR"), [Found(rule: "gated", secret: "q7Zk3mPxR")])
    }
}
