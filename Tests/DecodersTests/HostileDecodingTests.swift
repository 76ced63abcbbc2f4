import Decoders
import Foundation
import XCTest

/// Inputs built to make decoding expensive: the cost stays bounded by the input's size
/// (decoded bytes within the budget), never by the depth asked for. No time is asserted
/// (a loaded machine would make that flaky); each input finishing within the test run's
/// timeout, with its decoded bytes counted, is what is checked.
final class HostileDecodingTests: XCTestCase {
    let value = "ks_" + "decoded_canary_" + "7Hq2Lx9Vb4Nw"

    func testBudgetIsFourTimesTheBufferCappedAt64MiB() {
        XCTAssertEqual(DecodeBudget(bufferSize: 1000).remainingBytes, 4000)
        XCTAssertEqual(DecodeBudget(bufferSize: 100 << 20).remainingBytes, 64 << 20)
        XCTAssertEqual(DecodeBudget(bufferSize: 1000).maxDepth, 2)
        var budget = DecodeBudget(maxDepth: 2, totalBytes: 10)
        XCTAssertTrue(budget.take(10))
        XCTAssertFalse(budget.take(1))
        XCTAssertTrue(budget.exhausted)
    }

    func testTenMegabyteRunOfTheBase64Alphabet() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let noise = Decode.noise(10 << 20, seed: 7)
        let bytes = noise.map { alphabet[Int($0 & 63)] }
        for depth in [2, 8] {
            let initial = DecodeBudget(maxDepth: depth, bufferSize: bytes.count)
            let (texts, budget) = Decode.texts(bytes, depth: depth)
            // Random base64 is no text; its binary decode is searched for nested encodings, and
            // random bytes hold an accidental `%XX` among printable bytes now and then: those
            // few short texts are all there is.
            XCTAssertEqual(texts.filter { $0.encodings == [.base64] }, [], "random base64 is no text")
            XCTAssertLessThan(texts.reduce(0) { $0 + $1.bytes.count }, 4096)
            XCTAssertGreaterThanOrEqual(budget.remainingBytes, 0)
            XCTAssertLessThanOrEqual(initial.remainingBytes - budget.remainingBytes, initial.remainingBytes)
        }
        // Base64 of text, 10 MB of it: decoded once per level, within the budget.
        let text = Decode.base64(Array(Array(repeating: Array(("one line of ordinary text, " + value + "\n").utf8), count: 200_000).joined()))
        let textBytes = Array(text.utf8)
        let initial = DecodeBudget(maxDepth: 8, bufferSize: textBytes.count)
        let (texts, budget) = Decode.texts(textBytes, depth: 8)
        XCTAssertEqual(texts.count, 1)
        XCTAssertEqual(texts.first?.sourceRange, 0..<textBytes.count)
        XCTAssertLessThanOrEqual(texts.reduce(0) { $0 + $1.bytes.count }, initial.remainingBytes)
        XCTAssertFalse(budget.exhausted)
    }

    func testTwentyLevelsOfBase64() {
        var encoded = "user:" + value
        for _ in 0..<20 { encoded = Decode.base64(encoded) }
        let bytes = Array(encoded.utf8)
        // The default depth decodes two levels and stops.
        let (two, _) = Decode.texts(bytes, depth: 2)
        XCTAssertEqual(two.map(\.encodings.count), [1, 2])
        // Depth 20 reaches the value, every level at the outer span, within the budget.
        let initial = DecodeBudget(maxDepth: 20, bufferSize: bytes.count)
        let (all, budget) = Decode.texts(bytes, depth: 20)
        XCTAssertEqual(all.count, 20)
        XCTAssertEqual(all.last?.text, "user:" + value)
        XCTAssertEqual(all.last?.encodings, Array(repeating: .base64, count: 20))
        XCTAssertEqual(Set(all.map(\.sourceRange)), [0..<bytes.count])
        XCTAssertLessThanOrEqual(all.reduce(0) { $0 + $1.bytes.count }, initial.remainingBytes)
        XCTAssertFalse(budget.exhausted)
        // A budget too small for the nesting stops it, and says so.
        var small = DecodeBudget(maxDepth: 20, totalBytes: bytes.count)
        var decoder = NestedDecoder()
        var out: [DecodedText] = []
        bytes.withUnsafeBytes { decoder.decode($0, budget: &small, into: &out) }
        XCTAssertTrue(small.exhausted)
        XCTAssertLessThan(out.count, 20)
        XCTAssertLessThanOrEqual(out.reduce(0) { $0 + $1.bytes.count }, bytes.count)
    }

    func testAlternatingEscapesAndLongLinesOfTriggers() {
        // Backslashes escaped again at every level, percent and JSON escapes alternating,
        // a megabyte each: every input is one pass (a span tried once, not once per escape).
        var nested = value
        for level in 0..<12 {
            nested = level % 2 == 0 ? nested.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "/", with: "\\/") + "\\/"
                : Decode.percentAll(nested)
        }
        let hostile: [[UInt8]] = [
            Array(String(repeating: "\\u0041\\x41%41\\101", count: 60_000).utf8),
            Array(("\"" + String(repeating: "\\\"", count: 500_000) + "\"").utf8),
            Array(String(repeating: "%4", count: 500_000).utf8),
            Array(String(repeating: "%41", count: 350_000).utf8),
            Array(String(repeating: "\\x0", count: 350_000).utf8),
            Array(String(repeating: "data:;base64,", count: 80_000).utf8),
            Array(String(repeating: "\"\\/", count: 350_000).utf8),
            Array(nested.utf8),
        ]
        for bytes in hostile {
            let initial = DecodeBudget(maxDepth: 16, bufferSize: bytes.count)
            let (texts, budget) = Decode.texts(bytes, depth: 16)
            XCTAssertLessThanOrEqual(texts.reduce(0) { $0 + $1.bytes.count }, initial.remainingBytes)
            XCTAssertGreaterThanOrEqual(budget.remainingBytes, 0)
            for text in texts { XCTAssertTrue(text.sourceRange.upperBound <= bytes.count && !text.sourceRange.isEmpty) }
        }
    }
}
