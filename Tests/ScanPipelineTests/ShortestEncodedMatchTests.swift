import Foundation
import XCTest
import Decoders
import ScanCore
@testable import MatchEngine
@testable import ScanPipeline
import TestSupport

/// The decoders read a base64 run only from `SpanFinder.minimumBase64Length` characters on,
/// which decode to `minimumBase64Length * 3 / 4` bytes: that is safe only while no rule can
/// match in fewer bytes. Each example of the builtin pack is cut down from both ends, a byte
/// at a time, for as long as its rule still finds the marked secret (the matcher alone); what
/// is left must be longer than a shorter run could hold, and, base64-encoded as one value,
/// must be found by the scan pipeline in the decoded text.
final class ShortestEncodedMatchTests: XCTestCase {
    static let root = Checkout.root

    struct Shortest {
        var ruleIndex: Int
        var rule: String
        var text: String
    }

    /// Every example of the pack, each cut to the shortest text its rule still finds it in.
    func shortestExamples() throws -> (RuleSet, [Shortest]) {
        let dir = Self.root.appendingPathComponent("Rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()
        let files = try names.map { try RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: "Rules/" + $0) }
        let (set, _) = RuleSet.combining(files)
        let matcher = Matcher(ruleSet: set, mode: .ruleCheck)
        var result: [Shortest] = []
        for (index, rule) in set.rules.enumerated() {
            for example in rule.examples {
                guard let (text, marked) = RuleChecker.parseExample(example) else { continue }
                var bytes = Array(text.utf8)
                var secret = marked
                func found(_ candidate: [UInt8], _ span: Range<Int>) -> Bool {
                    guard let s = String(bytes: candidate, encoding: .utf8) else { return false }
                    return RuleChecker.run(matcher, s).contains { $0.ruleIndex == index && $0.secret == span }
                }
                // Whole halves first, then quarters and so on down to single bytes.
                var step = max(1, bytes.count / 2)
                while step > 0 {
                    if step <= secret.lowerBound, found(Array(bytes.dropFirst(step)), (secret.lowerBound - step)..<(secret.upperBound - step)) {
                        bytes.removeFirst(step)
                        secret = (secret.lowerBound - step)..<(secret.upperBound - step)
                    } else {
                        step /= 2
                    }
                }
                step = max(1, bytes.count / 2)
                while step > 0 {
                    if step <= bytes.count - secret.upperBound, found(Array(bytes.dropLast(step)), secret) {
                        bytes.removeLast(step)
                    } else {
                        step /= 2
                    }
                }
                result.append(Shortest(ruleIndex: index, rule: rule.id, text: String(decoding: bytes, as: UTF8.self)))
            }
        }
        return (set, result)
    }

    func testNoExampleMatchesInFewerBytesThanTheShortestDecodedRunHolds() throws {
        let (set, shortest) = try shortestExamples()
        XCTAssertGreaterThan(shortest.count, 1800)
        // n bytes are ceil(4n / 3) characters of base64 without padding.
        func encodedLength(_ text: String) -> Int { (4 * text.utf8.count + 2) / 3 }
        let tooShort = shortest.filter { encodedLength($0.text) < SpanFinder.minimumBase64Length }.map { "\($0.rule): \($0.text)" }
        XCTAssertEqual(tooShort, [])
        // The bound is tight: wifi-psk's `psk="Vx3p!Lq9Zt"` (16 bytes, 22 characters) when
        // the minimum was set (pack 2026.12.4); a longer minimum would lose it.
        XCTAssertEqual(shortest.map { encodedLength($0.text) }.min(), SpanFinder.minimumBase64Length)

        // Those near the bound, encoded, are found in their decode by the pipeline the scans
        // run (not all: each decoded finding's value is hashed, 12 ms in a debug build).
        let near = shortest.filter { encodedLength($0.text) < 40 }
        XCTAssertGreaterThan(near.count, 100)
        let run = ExampleScan.runner(for: set)
        var missed: [String] = []
        for s in near {
            let encoded = Data(s.text.utf8).base64EncodedString()
            if !run("value: \"\(encoded)\"").contains(where: { $0.ruleIndex == s.ruleIndex }) { missed.append("\(s.rule): \(s.text)") }
        }
        XCTAssertEqual(missed, [])
    }
}
