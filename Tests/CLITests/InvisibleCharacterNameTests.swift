import Foundation
import XCTest
import TestSupport

/// Two files whose names differ only by characters that print as nothing (a zero-width
/// space, a tag character, a byte order mark) print differently: the invisible character is
/// escaped in text, CSV, HTML and JUnit, and written as a `\u` escape in JSON and SARIF,
/// which still parse back to the exact name.
final class InvisibleCharacterNameTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "invisible1"
    let names = ["ab.env", "a\u{200B}b.env", "a\u{E0062}b.env", "a\u{FEFF}b.env", "a\u{2060}b.env"]
    let invisible: [Unicode.Scalar] = ["\u{200B}", "\u{E0062}", "\u{FEFF}", "\u{2060}"]

    func tree() -> TempDir {
        let tmp = TempDir()
        for name in names { tmp.write("src/" + name, "key = \(canary)\n") }
        return tmp
    }

    func assertNoneRaw(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for scalar in invisible where text.unicodeScalars.contains(scalar) {
            XCTFail("\(what) holds U+\(String(scalar.value, radix: 16, uppercase: true)) raw", file: file, line: line)
        }
    }

    func testTextShowsEachNameDifferently() {
        let tmp = tree()
        let r = keyshape(["scan", tmp.path + "/src", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoneRaw(r.stdout + r.stderr, "text")
        let places = r.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        XCTAssertEqual(places.sorted(), [#"a\u{200b}b.env"#, #"a\u{2060}b.env"#, #"a\u{e0062}b.env"#, #"a\u{feff}b.env"#, "ab.env"])
        for format in ["csv", "html", "junit", "markdown"] {
            let other = keyshape(["scan", tmp.path + "/src", "--no-progress", "--format", format])
            XCTAssertEqual(other.status, 1, "\(format): \(other.stderr)")
            assertNoneRaw(other.stdout, format)
            XCTAssertTrue(other.stdout.contains(#"a\u{200b}b.env"#), format)
        }
    }

    func testJSONAndSARIFEscapeThemAndParseBackToTheNames() throws {
        let tmp = tree()
        let json = keyshape(["scan", tmp.path + "/src", "--no-progress", "--format", "json"])
        XCTAssertEqual(json.status, 1, json.stderr)
        assertNoneRaw(json.stdout, "JSON")
        XCTAssertTrue(json.stdout.contains(#"a\u200bb.env"#), json.stdout)
        XCTAssertTrue(json.stdout.contains(#"a\udb40\udc62b.env"#), json.stdout)
        let object = try XCTUnwrap(json.report)
        let paths = (object["findings"] as! [[String: Any]]).map { ($0["location"] as! [String: Any])["path"] as! String }
        XCTAssertEqual(Set(paths.map { Array($0.unicodeScalars) }), Set(names.map { Array($0.unicodeScalars) }))
        let sarif = keyshape(["scan", tmp.path + "/src", "--no-progress", "--format", "sarif"])
        assertNoneRaw(sarif.stdout, "SARIF")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: sarif.stdoutData))
    }
}
