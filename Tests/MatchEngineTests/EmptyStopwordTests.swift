import Foundation
import XCTest
@testable import MatchEngine

/// Every secret contains the empty string: an empty stopword would allowlist everything.
final class EmptyStopwordTests: XCTestCase {
    func testEmptyStopwordIsRefused() {
        XCTAssertThrowsError(try RuleLoader.load(text: "[[allowlists]]\nstopwords = ['x', '']\n", file: "c.toml", kind: .config)) { error in
            XCTAssertTrue("\(error)".contains("c.toml:2:"), "\(error)")
            XCTAssertTrue("\(error)".contains("empty stopword"), "\(error)")
        }
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nid = 'r'\nregex = 'x'\n[[rules.allowlists]]\nstopwords = ['']\n", file: "r.toml"))
        XCTAssertNoThrow(try RuleLoader.load(text: "[[allowlists]]\nstopwords = ['example']\n", file: "c.toml", kind: .config))
    }
}
