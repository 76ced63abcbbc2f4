import Foundation
import XCTest
import ScanCore
import TestSupport
@testable import MatchEngine

/// GitHub's token checksum (and npm's, the same scheme), and the confidence it gives a match.
final class ChecksumTests: XCTestCase {
    /// A token of GitHub's format with a checksum that holds, from 30 random characters.
    static func validToken(prefix: String, seed: UInt64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var rng = SeededGenerator(seed: seed)
        var random = (0..<30).map { _ in rng.pick(alphabet) }
        let crc = random.withUnsafeMutableBytes { Checksum.crc32(UnsafeRawBufferPointer($0)) }
        return prefix + String(decoding: random, as: UTF8.self) + Checksum.base62(crc)
    }

    func holds(_ s: String) -> Bool? {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBytes { Checksum.githubCRC32.holds(UnsafeRawBufferPointer($0)) }
    }

    func testCRC32AndBase62() {
        var check = Array("123456789".utf8)
        // The standard CRC-32 check value.
        XCTAssertEqual(check.withUnsafeMutableBytes { Checksum.crc32(UnsafeRawBufferPointer($0)) }, 0xCBF4_3926)
        XCTAssertEqual(Checksum.base62(0), "000000")
        XCTAssertEqual(Checksum.base62(61), "00000z")
        XCTAssertEqual(Checksum.base62(62), "000010")
        XCTAssertEqual(Checksum.base62(UInt32.max), "4gfFC3")
    }

    func testGitHubChecksumHoldsFailsOrDoesNotApply() {
        for (n, prefix) in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_"].enumerated() {
            let token = Self.validToken(prefix: prefix, seed: UInt64(n + 1))
            XCTAssertEqual(holds(token), true, prefix)
            // One character of the random part changed: the checksum fails.
            var broken = Array(token.utf8)
            broken[6] = broken[6] == 0x41 ? 0x42 : 0x41
            XCTAssertEqual(holds(String(decoding: broken, as: UTF8.self)), false, prefix)
        }
        XCTAssertNil(holds("ghp_tooShort123"), "not the format's shape: no claim")
        XCTAssertNil(holds("ghp_" + String(repeating: "a", count: 30) + "00-000"), "not base62")
    }

    func testMatchCarriesTheChecksumAndConfidenceFollowsIt() throws {
        let set = try rules("""
        [[rules]]
        id = "gh"
        regex = '''(ghp_[A-Za-z0-9]{36})'''
        keywords = ["ghp_"]
        checksum = "github-crc32"
        [[rules]]
        id = "plain"
        regex = '''(tok_[A-Za-z0-9]{20})'''
        keywords = ["tok_"]
        confidence = "high"
        [[rules]]
        id = "generic-thing"
        regex = '''gen=([A-Za-z0-9]{20})'''
        keywords = ["gen="]
        """)
        let good = Self.validToken(prefix: "ghp_", seed: 42)
        var broken = Array(good.utf8)
        broken[10] = broken[10] == 0x41 ? 0x42 : 0x41
        let bad = String(decoding: broken, as: UTF8.self)
        let matcher = Matcher(ruleSet: set)
        func checksums(_ text: String) -> [Bool?] {
            var bytes = Array(text.utf8)
            var out: [Bool?] = []
            bytes.withUnsafeMutableBytes { buf in
                matcher.scan(UnsafeRawBufferPointer(buf), onMatch: { out.append($0.checksum) }, onFailure: { _ in })
            }
            return out
        }
        XCTAssertEqual(checksums("a=\(good) b=\(bad)"), [true, false])
        XCTAssertEqual(checksums("tok_q7Zk3mPxR2vL9sWd4HbN"), [nil])
        let gh = set.rules[0], plain = set.rules[1], generic = set.rules[2]
        XCTAssertEqual(gh.confidence(checksum: true), .high)
        XCTAssertEqual(gh.confidence(checksum: false), .low)
        XCTAssertEqual(gh.defaultConfidence, .high)
        XCTAssertEqual(plain.confidence(checksum: nil), .high)
        XCTAssertEqual(generic.confidence(checksum: nil), .low)
        XCTAssertEqual(set.ruleInfos.map(\.confidence), [.high, .high, .low])
    }

    func testUnknownChecksumOrConfidenceIsALoadError() {
        XCTAssertThrowsError(try rules("[[rules]]\nid = \"a\"\nregex = 'x'\nkeywords = ['x']\nchecksum = \"luhn9\"\n"))
        XCTAssertThrowsError(try rules("[[rules]]\nid = \"a\"\nregex = 'x'\nkeywords = ['x']\nconfidence = \"certain\"\n"))
    }

    /// The pack's GitHub and npm rules check the checksum.
    func testPackRulesDeclareTheChecksum() throws {
        let dir = Paths.root.appendingPathComponent("Rules")
        var byID: [String: Rule] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".toml") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for rule in try RuleLoader.load(text: text, file: name).rules { byID[rule.id] = rule }
        }
        for id in ["github-pat", "github-oauth-token", "github-user-to-server-token", "github-server-to-server-token",
                   "github-refresh-token", "npm-access-token"] {
            XCTAssertEqual(byID[id]?.checksum, .githubCRC32, id)
        }
    }
}
