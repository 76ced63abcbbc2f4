import XCTest
import TestSupport
@testable import MatchEngine

/// `LineMemo` against the plain searches it replaced, on seeded buffers from one newline in
/// three bytes to none, with hits in the matcher's order (by end within each quarter, keywords
/// of several lengths, so starts step back now and then) and out of it, at the matcher's
/// bounds and others.
final class LineMemoTests: XCTestCase {
    static func plainStart(_ b: [UInt8], _ start: Int, _ floor: Int) -> Int {
        var lo = start
        while lo > floor && b[lo - 1] != 0x0A { lo -= 1 }
        return lo
    }

    static func plainEnd(_ b: [UInt8], _ end: Int, _ limit: Int) -> Int {
        var i = end
        while i < limit && b[i] != 0x0A { i += 1 }
        return i
    }

    func testTheMemoGivesThePlainSearches() {
        var r = SeededGenerator(seed: 21)
        var hits = 0
        for round in 0..<300 {
            let n = r.below(5000)
            let gap = [3, 40, 700, 5000, Int.max][round % 5]
            let bytes = (0..<n).map { _ in gap == Int.max || r.below(gap) != 0 ? UInt8(ascii: "A") : 0x0A }
            // Rounds 1 and 2 in order of end, round 2's from four quarters interleaved (as the
            // keyword pass's streams report them); round 0 in any order.
            let ordered = round % 3 != 0, streams = round % 3 == 2 ? 4 : 1
            var at = (0..<streams).map { $0 * n / streams }
            var ends: [Int] = []
            for _ in 0..<(n == 0 ? 0 : r.below(300)) {
                let k = r.below(streams)
                at[k] = ordered ? min(n, at[k] + r.below(r.below(2) == 0 ? 3 : 900)) : r.below(n + 1)
                ends.append(at[k])
            }
            bytes.withUnsafeBytes { buffer in
                var memo = LineMemo(buffer)
                for end in ends {
                    let start = max(0, end - [1, 4, 22, 3][r.below(4)])
                    // The matcher's bounds, and in a third of the rounds bounds of any reach.
                    let behind = round % 3 == 1 ? r.below(600) : Matcher.lookBehind
                    let floor = max(0, start - behind), limit = min(n, end + Matcher.lookAhead)
                    let lo = memo.lineStart(before: start, floor: floor), hi = memo.lineEnd(from: end, limit: limit)
                    XCTAssertEqual(lo, Self.plainStart(bytes, start, floor), "round \(round): start \(start)")
                    XCTAssertEqual(hi, Self.plainEnd(bytes, end, limit), "round \(round): end \(end)")
                    hits += 1
                }
            }
        }
        XCTAssertGreaterThan(hits, 20_000)
    }
}
