import XCTest
import TestSupport
@testable import MatchEngine

/// Keyword occurrences taken from an earlier version of a buffer must be exactly the ones
/// a full search finds: every occurrence once, with its end, wherever the edits fall.
final class HitReferenceTests: XCTestCase {
    let index = KeywordIndex(keywords: ["token", "secret", "ghp_", "api_key", "ab", "b", "pat", "aws", "-----begin"])

    func pack(_ hits: [(Int, Int)]) -> [UInt64] { hits.map { UInt64($0.0) << 40 | UInt64($0.1) } }

    func fullSearch(_ bytes: [UInt8]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        bytes.withUnsafeBytes { index.forEachHit($0) { out.append(($0, $1)) } }
        return out
    }

    func viaReference(_ new: [UInt8], old: [UInt8]) -> (hits: [(Int, Int)], searched: Int) {
        var out: [(Int, Int)] = []
        var searched = 0
        old.withUnsafeBytes { oldRaw in
            let reference = HitReference(bytes: oldRaw, hits: pack(fullSearch(old)))
            new.withUnsafeBytes { searched = reference.forEachHit(in: $0, index: index) { out.append(($0, $1)) } }
        }
        return (out, searched)
    }

    func key(_ hits: [(Int, Int)]) -> [String] { hits.map { "\($0.0)@\($0.1)" }.sorted() }

    func randomText(_ count: Int, _ rng: inout some RandomNumberGenerator) -> [UInt8] {
        let pieces = ["token", "SECRET", "ghp_", "api_key", "ab", "pat", "AWS", "-----BEGIN", " ", "\n", "x", "y", "=", "q"].map { Array($0.utf8) }
        var out: [UInt8] = []
        while out.count < count { out += pieces.randomElement(using: &rng)! }
        return out
    }

    func testAgreesWithAFullSearchUnderRandomEdits() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let old = randomText(Int.random(in: 0...3000, using: &rng), &rng)
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let at = Int.random(in: 0...new.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: new.insert(contentsOf: randomText(Int.random(in: 1...40, using: &rng), &rng), at: at)
                case 1: new.removeSubrange(at..<min(new.count, at + Int.random(in: 1...40, using: &rng)))
                default:
                    // A block moved elsewhere: equal segments found out of order.
                    let end = min(new.count, at + Int.random(in: 1...200, using: &rng))
                    let block = Array(new[at..<end])
                    new.removeSubrange(at..<end)
                    new.insert(contentsOf: block, at: Int.random(in: 0...new.count, using: &rng))
                }
            }
            let expected = fullSearch(new)
            let got = viaReference(new, old: old)
            XCTAssertEqual(key(got.hits), key(expected), "round \(round)")
            XCTAssertEqual(got.hits.count, Set(key(got.hits)).count, "each occurrence once (round \(round))")
        }
    }

    /// Reproducible small cases (a seeded generator): deletions that make two equal
    /// segments meet with an occurrence straddling the seam were once missed.
    func testAgreesOnSeededSmallEdits() {
        for seed in 0..<3000 {
            var rng = SeededGenerator(seed: UInt64(seed))
            let old = randomText(Int.random(in: 0...600, using: &rng), &rng)
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let at = Int.random(in: 0...new.count, using: &rng)
                if Bool.random(using: &rng) {
                    new.insert(contentsOf: randomText(Int.random(in: 1...20, using: &rng), &rng), at: at)
                } else {
                    new.removeSubrange(at..<min(new.count, at + Int.random(in: 1...20, using: &rng)))
                }
            }
            let got = viaReference(new, old: old).hits
            XCTAssertEqual(key(got), key(fullSearch(new)), "seed \(seed)")
            XCTAssertEqual(got.count, Set(key(got)).count, "each occurrence once (seed \(seed))")
        }
    }

    func testEdgeCases() {
        for (old, new) in [("", "token"), ("token", ""), ("token", "token"), ("tok", "token"), ("xtokenx", "xtoken"),
                           ("ab ab ab", "ab b ab"), ("secret", "secretsecret"), ("aaaa", "aaaab")] {
            let o = Array(old.utf8), n = Array(new.utf8)
            XCTAssertEqual(key(viaReference(n, old: o).hits), key(fullSearch(n)), "\(old) -> \(new)")
        }
    }

    func testSearchesOnlyAroundTheChange() {
        var rng = SystemRandomNumberGenerator()
        let old = randomText(100_000, &rng)
        var new = old
        new.insert(contentsOf: Array(" token ".utf8), at: 30_000)
        new.removeSubrange(70_000..<70_010)
        let got = viaReference(new, old: old)
        XCTAssertEqual(key(got.hits), key(fullSearch(new)))
        XCTAssertLessThan(got.searched, 1_000, "two small edits: the automaton runs near them only")
    }
    /// The whole matcher with a reference: the same matches as without, secrets included.
    func testMatcherFindsTheSameSecretsWithAReference() throws {
        let set = try rules(#"""
        [[rules]]
        id = "gh"
        regex = '''(ghp_[A-Za-z0-9]{36})'''
        keywords = ["ghp_"]
        [[rules]]
        id = "assigned-token"
        regex = '''token\s*=\s*"([A-Za-z0-9]{20,})"'''
        keywords = ["token"]
        """#)
        let alnum = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var rng = SystemRandomNumberGenerator()
        func line() -> [UInt8] {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return Array("let k = \"ghp_".utf8) + (0..<36).map { _ in alnum.randomElement(using: &rng)! } + Array("\"\n".utf8)
            case 1: return Array("token = \"".utf8) + (0..<24).map { _ in alnum.randomElement(using: &rng)! } + Array("\"\n".utf8)
            default: return Array("    value = compute(path, pattern) # token\n".utf8)
            }
        }
        func matches(_ matcher: Matcher, _ bytes: [UInt8], _ reference: HitReference?) -> [String] {
            var out: [String] = []
            bytes.withUnsafeBytes { raw in
                matcher.scan(raw, reference: reference, onMatch: { m in
                    out.append("\(m.ruleIndex)@\(m.secret)")
                }, onFailure: { _ in })
            }
            return out.sorted()
        }
        let matcher = Matcher(ruleSet: set)
        var found = 0
        for round in 0..<200 {
            let old = (0..<Int.random(in: 0...80, using: &rng)).flatMap { _ in line() }
            var new = old
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let at = Int.random(in: 0...new.count, using: &rng)
                if Bool.random(using: &rng) {
                    new.insert(contentsOf: line(), at: at)
                } else {
                    new.removeSubrange(at..<min(new.count, at + Int.random(in: 1...60, using: &rng)))
                }
            }
            _ = matches(matcher, old, nil)
            let oldHits = matcher.hits
            let expected = matches(matcher, new, nil)
            let got = old.withUnsafeBytes { matches(matcher, new, HitReference(bytes: $0, hits: oldHits)) }
            XCTAssertEqual(got, expected, "round \(round)")
            found += expected.count
        }
        XCTAssertGreaterThan(found, 1000, "the texts hold secrets for both rules")
    }
}
