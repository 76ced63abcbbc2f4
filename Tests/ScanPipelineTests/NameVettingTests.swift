import XCTest
import MatchEngine
@testable import ScanPipeline

/// A folder walk's names are vetted as any other, without being remembered (each path is
/// listed once; remembering them only cost hashing and memory): the same names withheld.
final class NameVettingTests: XCTestCase {
    func testAFolderWalksNamesAreVettedWithoutBeingRemembered() {
        let vetting = NameVetting(ruleSet: TestRules.set())
        let withToken = Array("cache/\(TestRules.token).json".utf8)
        let plain = Array("src/main.swift".utf8)
        let once = [withToken, plain].map { vetting.vet($0, once: true) }
        XCTAssertEqual(vetting.remembered, 0)
        XCTAssertEqual(String(decoding: once[0], as: UTF8.self), "cache/[withheld].json")
        XCTAssertEqual(once[1], plain)
        // Remembered (history meets a path in many commits): the same answers.
        XCTAssertEqual([withToken, plain].map { vetting.vet($0) }, once)
        XCTAssertEqual([withToken, plain].map { vetting.vet($0) }, once)
        XCTAssertEqual(vetting.remembered, 2)
    }
}
