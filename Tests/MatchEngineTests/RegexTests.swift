import XCTest
@testable import MatchEngine

final class RegexTests: XCTestCase {
    func match(_ r: Regex, _ bytes: [UInt8], from: Int = 0) -> RegexMatch {
        var b = bytes
        let scratch = MatchScratch(maxCaptures: r.captureCount)
        return b.withUnsafeMutableBytes { r.firstMatch(in: UnsafeRawBufferPointer($0), from: from, scratch: scratch) }
    }

    func testByteOffsetsNotCharacterCounts() throws {
        let r = try Regex("key=([a-z]+)")
        // "é" is two bytes: the group starts at byte 7, not character 6.
        guard case .match(let groups) = match(r, Array("é key=abc".utf8)) else { return XCTFail("no match") }
        XCTAssertEqual(groups[0], 3..<10)
        XCTAssertEqual(groups[1], 7..<10)
    }

    func testInvalidUTF8AndNULBytesAreOrdinaryInput() throws {
        let r = try Regex("AKIA[A-Z0-9]{4}")
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3] + Array("AKIAABCD".utf8) + [0x80, 0x00]
        guard case .match(let groups) = match(r, bytes) else { return XCTFail("no match") }
        XCTAssertEqual(groups[0], 4..<12)
    }

    func testCompileErrorCarriesMessageAndOffset() {
        XCTAssertThrowsError(try Regex("abc(def")) { error in
            guard let e = error as? Regex.CompileError else { return XCTFail("wrong error \(error)") }
            XCTAssertEqual(e.offset, 7)
            XCTAssertTrue(e.message.contains("parenthesis"), e.message)
        }
    }

    func testJITIsUsedWhenAvailable() throws {
        let r = try Regex("sk-[a-z]{4}")
        XCTAssertEqual(r.isJIT, RuleChecker.jitAvailable)
        XCTAssertTrue(RuleChecker.jitAvailable, "this build of PCRE2 has no JIT")
    }

    func testCatastrophicBacktrackingHitsTheLimitInsteadOfHanging() throws {
        let r = try Regex("(a+)+$")
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 5000) + [UInt8(ascii: "b")]
        let started = Date()
        let result = match(r, bytes)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        guard case .failure(let code, let message) = result else { return XCTFail("expected a limit error, got \(result)") }
        XCTAssertTrue(code == -47 || code == -53 || code == -63, "code \(code)")
        XCTAssertFalse(message.isEmpty)
    }

    func testUnsetGroupIsNil() throws {
        let r = try Regex("(x)?(y)")
        guard case .match(let groups) = match(r, Array("y".utf8)) else { return XCTFail() }
        XCTAssertNil(groups[1])
        XCTAssertEqual(groups[2], 0..<1)
    }

    func testMatchFromOffsetAndEmptyBuffer() throws {
        let r = try Regex("ab")
        guard case .match(let g) = match(r, Array("ab ab".utf8), from: 1) else { return XCTFail() }
        XCTAssertEqual(g[0], 3..<5)
        XCTAssertEqual(match(r, []), .noMatch)
    }

    /// A pattern compiled at first use: the same matches, and one that does not compile
    /// fails every match (never a silent "no match") and names its error.
    func testDeferredCompilation() throws {
        let deferred = try Regex("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)(m)(n)(o)(p)(q)(r)", deferred: true)
        var text = Array("xxabcdefghijklmnopqr".utf8)
        let scratch = MatchScratch()  // room for 15 groups at first
        let result = text.withUnsafeMutableBytes { deferred.firstMatch(in: UnsafeRawBufferPointer($0), from: 0, scratch: scratch) }
        guard case .match(let g) = result else { return XCTFail("deferred pattern did not match") }
        XCTAssertEqual(g.count, 19, "more groups than the scratch starts with: it grows")
        XCTAssertEqual(g[18], 19..<20)
        XCTAssertEqual(deferred.captureCount, 18)
        XCTAssertNil(deferred.error)

        let broken = try Regex("(unclosed", deferred: true)
        guard case .failure(_, let message) = match(broken, Array("unclosed".utf8)) else { return XCTFail("a broken deferred pattern must fail") }
        XCTAssertTrue(message.contains("does not compile"), message)
        XCTAssertNotNil(broken.error)
        XCTAssertFalse(broken.isJIT)
        XCTAssertThrowsError(try Regex("(unclosed"), "compiled now, the error is thrown")
    }
}
