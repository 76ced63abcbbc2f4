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

/// A rule `gated` that takes the letters and digits after `prefix`, held to `entropy = 3.5`;
/// the tests append the key they exercise.
private func entropyGatedRule(prefix: String) -> String {
    """
    [[rules]]
    id = "gated"
    regex = '''\(prefix)([A-Za-z0-9]+)'''
    keywords = ["\(prefix)"]
    entropy = 3.5

    """
}

/// `hexEntropy`: a secret of hex digits alone, in one case, is held to its own threshold; any
/// other secret, and every secret of a rule without it, to `entropy`.
final class HexEntropyTests: XCTestCase {
    let gated = entropyGatedRule(prefix: "tok=")

    func testHexDigitsAreMeasuredAgainstHexEntropy() throws {
        let withHex = try rules(gated + "hexEntropy = 3.0\n")
        let without = try rules(gated)
        // 32 random hex digits measuring under 3.5 (one such value in 5.4).
        let hex = "4159892b42de4d958e4c1ce1e0e59988"
        XCTAssertEqual(Entropy.shannon(hex), 3.2897, accuracy: 1e-4)
        XCTAssertEqual(scan(withHex, "tok=\(hex)"), [Found(rule: "gated", secret: hex)])
        XCTAssertEqual(scan(without, "tok=\(hex)"), [])
        XCTAssertEqual(scan(withHex, "tok=\(hex.uppercased())"), [Found(rule: "gated", secret: hex.uppercased())])
        // Under hexEntropy too: dropped.
        XCTAssertLessThanOrEqual(Entropy.shannon("00112233aabbccdd00112233aabbccdd"), 3.0)
        XCTAssertEqual(scan(withHex, "tok=00112233aabbccdd00112233aabbccdd"), [])
    }

    func testOtherSecretsKeepEntropy() throws {
        let set = try rules(gated + "hexEntropy = 3.0\n")
        // Mixed-case hex is not a hex rendering: the same bytes' entropy, gated at 3.5.
        let mixed = "4159892B42dE4d958e4c1ce1e0e59988"
        XCTAssertLessThanOrEqual(Entropy.shannon(mixed), 3.5)
        XCTAssertEqual(scan(set, "tok=\(mixed)"), [])
        // Letters past `f` with the same spread of bytes: 3.5 applies.
        let letters = "4159892g42dg4d958g4c1cg1g0g59988"
        XCTAssertLessThanOrEqual(Entropy.shannon(letters), 3.5)
        XCTAssertEqual(scan(set, "tok=\(letters)"), [])
    }

    func testIsHexDigits() {
        func hex(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { Entropy.isHexDigits($0) } }
        XCTAssertTrue(hex("0123456789abcdef"))
        XCTAssertTrue(hex("0123456789ABCDEF"))
        XCTAssertTrue(hex("0123"))
        XCTAssertFalse(hex(""))
        XCTAssertFalse(hex("0123abcDEF"))
        XCTAssertFalse(hex("0123abcg"))
        XCTAssertFalse(hex("0x12ab"))
    }
}

/// `shortEntropyMargin`: the gate is never more than log2(length) - margin, the most a secret
/// of its length can measure less the margin.
final class ShortEntropyMarginTests: XCTestCase {
    let gated = entropyGatedRule(prefix: "pw=")

    func testShortSecretsAreHeldToTheirLength() throws {
        let withMargin = try rules(gated + "shortEntropyMargin = 0.6\n")
        let without = try rules(gated)
        // 12 characters, one twice: 3.42, under 3.5 and over log2(12) - 0.6 = 2.98.
        XCTAssertEqual(Entropy.shannon("rvc5eQxSH0zr"), 3.4183, accuracy: 1e-4)
        XCTAssertEqual(scan(withMargin, "pw=rvc5eQxSH0zr"), [Found(rule: "gated", secret: "rvc5eQxSH0zr")])
        XCTAssertEqual(scan(without, "pw=rvc5eQxSH0zr"), [])
        // 8 characters, four different: 2.0, under log2(8) - 0.6 = 2.4.
        XCTAssertEqual(scan(withMargin, "pw=ab12ab12"), [])
        // 8 all different: 3.0, over 2.4.
        XCTAssertEqual(scan(withMargin, "pw=q7Zk3mPx"), [Found(rule: "gated", secret: "q7Zk3mPx")])
        // Long secrets keep `entropy`: 40 characters measuring 3.3 (log2(40) - 0.6 = 4.72).
        let long = "bagc23c3h4cg1b124ghhbc22abc342aa1cdgh1bd"
        XCTAssertLessThan(Entropy.shannon(long), 3.5)
        XCTAssertEqual(scan(withMargin, "pw=\(long)"), [])
    }
}
