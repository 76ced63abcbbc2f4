import Foundation
import XCTest
import TestSupport

/// `--min-confidence`: a GitHub token whose checksum fails is reported with low confidence and
/// `checksum: false`; a gate asking for high confidence reports only the one whose checksum
/// holds, and counts the other in `stats.belowMinConfidence`.
final class MinConfidenceTests: XCTestCase {
    /// A GitHub-format token built here: 30 random base62 characters and their CRC-32 in 6
    /// base62 digits (GitHub's documented scheme), or a wrong checksum.
    static func token(seed: UInt32, valid: Bool) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var g = SeededGenerator(seed: UInt64(seed))
        let random: [UInt8] = (0..<30).map { _ in g.pick(alphabet) }
        var crc: UInt32 = 0xFFFF_FFFF
        for b in random {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        if !valid { crc &+= 1 }
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var v = UInt64(crc), check: [UInt8] = []
        for _ in 0..<6 { check.append(digits[Int(v % 62)]); v /= 62 }
        return "ghp_" + String(decoding: random + check.reversed(), as: UTF8.self)
    }

    func findings(_ r: Run) -> ([[String: Any]], [String: Any]) {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return (object?["findings"] as? [[String: Any]] ?? [], object?["stats"] as? [String: Any] ?? [:])
    }

    func testChecksumDecidesConfidenceAndMinConfidenceFilters() {
        let good = Self.token(seed: 7, valid: true), bad = Self.token(seed: 8, valid: false)
        let tmp = TempDir()
        tmp.write("tree/a.env", "GH_TOKEN=\(good)\nOTHER_TOKEN=\(bad)\n")
        let all = keyshape(["scan", tmp.path + "/tree", "--no-config", "--format", "json", "--no-progress"])
        XCTAssertEqual(all.status, 1, all.stderr)
        let (everything, _) = findings(all)
        XCTAssertEqual(everything.map { $0["confidence"] as? String }, ["high", "low"])
        XCTAssertEqual(everything.map { $0["checksum"] as? Bool }, [true, false])

        let gate = keyshape(["scan", tmp.path + "/tree", "--no-config", "--format", "json", "--no-progress", "--min-confidence", "high"])
        XCTAssertEqual(gate.status, 1, gate.stderr)
        let (kept, stats) = findings(gate)
        XCTAssertEqual(kept.map { ($0["location"] as? [String: Any])?["line"] as? Int }, [1])
        XCTAssertEqual(stats["belowMinConfidence"] as? Int, 1)

        // Streamed text takes the filter too.
        let text = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--min-confidence", "high"])
        XCTAssertEqual(text.stdout.split(separator: "\n").count, 1, text.stdout)
        for r in [all, gate, text] {
            assertNoFragment(of: good, in: r.stdout + r.stderr, "output")
            assertNoFragment(of: bad, in: r.stdout + r.stderr, "output")
        }

        let wrong = keyshape(["scan", tmp.path + "/tree", "--min-confidence", "certain"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertFalse(wrong.stderr.contains("certain"), "arguments are not echoed")
    }
}
