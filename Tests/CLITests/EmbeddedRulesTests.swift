import Foundation
import XCTest

/// The builtin pack is embedded pre-parsed (the tables, without examples): what the binary
/// loads is what `--rules Rules/` loads from the text.
final class EmbeddedRulesTests: XCTestCase {
    func testEmbeddedRulesListEqualsTheRulesFolder() throws {
        let builtin = keyshape(["rules", "list", "--format", "json"])
        let fromText = keyshape(["rules", "list", "--format", "json", "--no-builtin-rules", "--rules", Repo.path("Rules")])
        XCTAssertEqual(builtin.status, 0, builtin.stderr)
        XCTAssertEqual(fromText.status, 0, fromText.stderr)
        XCTAssertEqual(builtin.stderr, "")
        let a = try XCTUnwrap(builtin.report)
        let b = try XCTUnwrap(fromText.report)
        XCTAssertGreaterThan(a["count"] as? Int ?? 0, 500)
        XCTAssertEqual(NSDictionary(dictionary: a), NSDictionary(dictionary: b), "ids, descriptions, tags, keywords and regexes")
    }
}
