import XCTest
import TestSupport
@testable import MatchEngine

/// The keyword pass over a binary's printable-run mask (`forEachHit(_:sparse:scratch:_:)`:
/// the stretches between newlines packed together) finds exactly the occurrences the pass
/// over the whole buffer finds, at the same ends: random masks of every density, keywords
/// in either case at the edges of stretches and of the buffer.
final class SparseKeywordPassTests: XCTestCase {
    /// TestSupport's SplitMix64: the same buffers on every machine, so a failure reproduces.
    typealias Generator = SeededGenerator

    static let keywords = ["key", "token", "sk_live_", "akia", "pass", "-----begin", "ey", "api_key", "x"]

    static func hits(_ index: KeywordIndex, _ bytes: [UInt8], sparse: UInt8?, scratch: inout KeywordIndex.SparseScratch) -> [UInt64] {
        var out: [UInt64] = []
        bytes.withUnsafeBytes { buffer in
            if let sparse {
                index.forEachHit(buffer, sparse: sparse, scratch: &scratch) { out.append(UInt64($0) << 40 | UInt64($1)) }
            } else {
                index.forEachHit(buffer) { out.append(UInt64($0) << 40 | UInt64($1)) }
            }
        }
        return out.sorted()
    }

    /// A mask: newlines, and stretches of printable bytes (0 to 60 long; some all keyword
    /// text, some random) with the given share of the buffer.
    static func mask(_ n: Int, density: Int, _ g: inout Generator) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < n {
            let run = Int(g.next() % 61)
            if Int(g.next() % 100) < density {
                var stretch: [UInt8] = []
                while stretch.count < run {
                    if g.next() % 3 == 0 {
                        let k = Array(keywords[Int(g.next() % UInt64(keywords.count))].utf8)
                        stretch += g.next() % 2 == 0 ? k : k.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                    } else {
                        stretch.append(g.next() % 16 == 0 ? 0x09 : UInt8(0x20 + g.next() % 95))
                    }
                }
                bytes += stretch
            } else {
                bytes += [UInt8](repeating: 0x0A, count: run)
            }
        }
        return Array(bytes.prefix(n))
    }

    func testSparsePassFindsWhatTheWholePassFinds() {
        let index = KeywordIndex(keywords: SparseKeywordPassTests.keywords)
        var g = Generator(seed: 0x7370_6172_7365_6b77)
        var scratch = KeywordIndex.SparseScratch()
        var withHits = 0
        for round in 0..<400 {
            let n = [4096, 4097, 5000, 8191, 20_000][round % 5] + Int(g.next() % 64)
            let density = [0, 2, 10, 40, 80, 100][Int(g.next() % 6)]
            let bytes = SparseKeywordPassTests.mask(n, density: density, &g)
            let whole = SparseKeywordPassTests.hits(index, bytes, sparse: nil, scratch: &scratch)
            let sparse = SparseKeywordPassTests.hits(index, bytes, sparse: 0x0A, scratch: &scratch)
            if !whole.isEmpty { withHits += 1 }
            guard whole == sparse else {
                return XCTFail("round \(round), \(n) bytes, density \(density): \(sparse.count) hits against \(whole.count)")
            }
        }
        XCTAssertGreaterThan(withHits, 300)
    }

    /// Keywords right at the buffer's two ends and at the ends of stretches.
    func testOccurrencesAtTheEdges() {
        let index = KeywordIndex(keywords: SparseKeywordPassTests.keywords)
        var scratch = KeywordIndex.SparseScratch()
        for gap in [1, 7, 8, 9, 64] {
            var bytes = Array("TOKEN".utf8) + [UInt8](repeating: 0x0A, count: gap) + Array("sk_live_".utf8)
            bytes += [UInt8](repeating: 0x0A, count: 5000) + Array("api_key".utf8) + [UInt8](repeating: 0x0A, count: gap) + Array("AKIA".utf8)
            let whole = SparseKeywordPassTests.hits(index, bytes, sparse: nil, scratch: &scratch)
            XCTAssertEqual(SparseKeywordPassTests.hits(index, bytes, sparse: 0x0A, scratch: &scratch), whole, "gap \(gap)")
            XCTAssertEqual(whole.count, 6, "token, sk_live_, api_key with its key and ey, akia: \(whole)")
        }
    }

    /// A filler a keyword holds is no separator: the whole pass runs, with the same result.
    func testFillerInsideAKeywordTakesTheWholePass() {
        let index = KeywordIndex(keywords: ["a\nb", "key"])
        XCTAssertFalse(index.separates(0x0A))
        XCTAssertTrue(KeywordIndex(keywords: ["key"]).separates(0x0A))
        var scratch = KeywordIndex.SparseScratch()
        let bytes = [UInt8](repeating: 0x0A, count: 4000) + Array("a\nb key".utf8) + [UInt8](repeating: 0x0A, count: 4000)
        let whole = SparseKeywordPassTests.hits(index, bytes, sparse: nil, scratch: &scratch)
        XCTAssertEqual(whole.count, 2)
        XCTAssertEqual(SparseKeywordPassTests.hits(index, bytes, sparse: 0x0A, scratch: &scratch), whole)
    }
}
