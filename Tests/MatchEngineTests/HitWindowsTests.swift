import XCTest
import TestSupport
@testable import MatchEngine

/// `HitWindows`: the windows the matcher runs a rule over are the union of each hit's line
/// (what the plain per-hit computation gives), and a long line of dense hits stays a few
/// windows, not one per hit.
final class HitWindowsTests: XCTestCase {
    static let ruleText = """
        [[rules]]
        id = "one"
        regex = '''aaaa[0-9]{4}'''
        keywords = ["aaaa"]
        [[rules]]
        id = "two"
        regex = '''(?:key|ab)[0-9]{4}'''
        keywords = ["key", "ab"]
        """

    /// The hits of the keyword pass, in its order, through `HitWindows`.
    static func collect(_ set: RuleSet, _ buffer: UnsafeRawBufferPointer) -> HitWindows {
        var w = HitWindows(set: set)
        w.begin(buffer)
        set.keywordIndex.forEachHit(buffer) { w.add(keyword: $0, end: $1) }
        return w
    }

    /// Per rule, the windows merged as the matcher merges them (overlapping or touching).
    static func merged(_ pairs: [(rule: Int, span: Range<Int>)]) -> [Int: [Range<Int>]] {
        var out: [Int: [Range<Int>]] = [:]
        for (rule, spans) in Dictionary(grouping: pairs, by: \.rule) {
            var list: [Range<Int>] = []
            for s in spans.map(\.span).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = list.last, s.lowerBound <= last.upperBound {
                    list[list.count - 1] = last.lowerBound..<max(last.upperBound, s.upperBound)
                } else {
                    list.append(s)
                }
            }
            out[rule] = list
        }
        return out
    }

    func testWindowsAreTheUnionOfEachHitsLine() throws {
        let set = try rules(Self.ruleText)
        var r = SeededGenerator(seed: 8)
        var hitCount = 0
        for round in 0..<60 {
            let n = r.below(9000)
            let pieces = ["aaaa", "a", "key", "ab", "x", " ", "\n", "aaaaaaaa"]
            var bytes: [UInt8] = []
            let newlines = round % 3 == 0
            while bytes.count < n {
                let piece = r.pick(pieces)
                if piece == "\n" && !newlines { continue }
                bytes += Array(piece.utf8)
            }
            bytes.withUnsafeBytes { buffer in
                let w = Self.collect(set, buffer)
                hitCount += w.hits.count
                // Each hit's own window, by the plain searches.
                var plain: [(rule: Int, span: Range<Int>)] = []
                for hit in w.hits {
                    let keyword = Int(hit >> 40), end = Int(hit & 0xFF_FFFF_FFFF)
                    let start = end - set.keywordIndex.keywordLengths[keyword]
                    let lo = LineMemoTests.plainStart(bytes, start, max(0, start - Matcher.lookBehind))
                    let hi = LineMemoTests.plainEnd(bytes, end, min(bytes.count, end + Matcher.lookAhead))
                    for o in Int(set.keywordRuleStart[keyword])..<Int(set.keywordRuleStart[keyword + 1]) {
                        plain.append((Int(set.keywordRules[o]), lo..<hi))
                    }
                }
                let mine = w.windows.map { (rule: Int($0 >> 44), span: w.span($0)) }
                XCTAssertEqual(Self.merged(mine), Self.merged(plain), "round \(round), \(bytes.count) bytes")
            }
        }
        XCTAssertGreaterThan(hitCount, 50_000)
    }

    func testALongLineOfDenseHitsIsAFewWindows() throws {
        let set = try rules(Self.ruleText)
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 18)
        bytes.withUnsafeBytes { buffer in
            let w = Self.collect(set, buffer)
            XCTAssertEqual(w.hits.count, bytes.count - 3, "a hit at every byte")
            // Windows of up to 4,095 bytes (about 3,300 new bytes each), each quarter its own.
            XCTAssertLessThanOrEqual(w.windows.count, bytes.count / 2000 + 8)
        }
    }
}
