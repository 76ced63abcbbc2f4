import XCTest
@testable import MatchEngine

/// Buffers cut short (a chunk of a larger file) ask for partial matching at their end.
final class PartialMatchTests: XCTestCase {
    func match(_ r: Regex, _ text: String, partial: Bool) -> CutMatch {
        var b = Array(text.utf8)
        let scratch = MatchScratch(maxCaptures: r.captureCount)
        return b.withUnsafeMutableBytes { buffer in
            partial ? r.firstMatch(inCut: UnsafeRawBufferPointer(buffer), from: 0, scratch: scratch)
                : .outcome(r.firstMatch(in: UnsafeRawBufferPointer(buffer), from: 0, scratch: scratch))
        }
    }

    func testAnAttemptReachingTheEndIsPartialOnlyWhenAsked() throws {
        for deferred in [false, true] {
            let r = try Regex("KEY_[A-Z]{8}_END", deferred: deferred)
            XCTAssertEqual(match(r, "xx KEY_ABCD", partial: true), .partial(start: 3))
            XCTAssertEqual(match(r, "xx KEY_ABCD", partial: false), .outcome(.noMatch))
            // A greedy run up to the end could go on: partial, though a match exists.
            let greedy = try Regex("KEY_[A-Z]{4,}", deferred: deferred)
            XCTAssertEqual(match(greedy, "xx KEY_ABCDEF", partial: true), .partial(start: 3))
            XCTAssertEqual(match(greedy, "xx KEY_ABCDEF", partial: false), .outcome(.match([3..<13])))
            // An attempt that never reaches the end matches as it would without.
            XCTAssertEqual(match(r, "KEY_ABCDEFGH_END and more", partial: true), .outcome(.match([0..<16])))
            XCTAssertEqual(match(r, "nothing here", partial: true), .outcome(.noMatch))
        }
    }
}
