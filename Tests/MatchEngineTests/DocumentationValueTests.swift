import Foundation
import XCTest
@testable import MatchEngine

/// Values providers publish in their own documentation are stand-ins wherever they appear:
/// whole, as a whole part of a longer secret (a connection string's password), or where a
/// rule took only a piece of one. Built from pieces, so this file holds none as one literal.
final class DocumentationValueTests: XCTestCase {
    /// GitHub's REST API documentation token, without its prefix.
    let githubDocs = "16C7e42F292c6912" + "E7710c838347Ae178B4a"

    lazy var pack: RuleSet = {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()) ?? []
        let files = names.compactMap { try? RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: $0) }
        return RuleSet(rules: files.flatMap(\.rules))
    }()

    func testADocumentationValueInsideASecretIsAPlaceholder() {
        XCTAssertEqual(Placeholder.reason("mongodb://svc:\(githubDocs)@db.internal:27017/orders"), .documentationValue)
        // Only as a whole part: a letter or digit on either side makes another value.
        XCTAssertNil(Placeholder.reason("mongodb://svc:x\(githubDocs)@db.internal:27017/orders"))
        XCTAssertNil(Placeholder.reason("mongodb://svc:Kq2Wv7" + "Lm4Tp8Rn3Hc9@db.internal:27017/orders"))
    }

    func testAPieceOfADocumentationValueIsOneToo() {
        let text = Array("password=\(githubDocs)".utf8)
        text.withUnsafeBufferPointer { b in
            XCTAssertTrue(Placeholder.documentationValue(in: b, overlapping: 15..<25))
            XCTAssertFalse(Placeholder.documentationValue(in: b, overlapping: 0..<8))
        }
    }

    func testAConnectionStringWithADocumentationValueMakesNoFinding() {
        XCTAssertEqual(scan(pack, "MONGO_URL=mongodb://svc:\(githubDocs)@db.internal:27017/orders\n"), [])
        XCTAssertFalse(scan(pack, "MONGO_URL=mongodb://svc:Hq8Zr3" + "Tk5Wm9Vx2Lp7@db.internal:27017/orders\n").isEmpty)
    }
}
