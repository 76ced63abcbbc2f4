import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// Characters that print as nothing (zero-width, format, tag characters, the byte order
/// mark) or as a plain space are escaped like controls in every format that escapes, so two
/// different paths never print alike: `a\u{200b}b/key.txt` and `ab/key.txt` are two files.
final class InvisibleCharacterEscapingTests: XCTestCase {
    /// One of each kind the escape must catch, with the text escape DisplayText writes.
    let invisible: [(Unicode.Scalar, String)] = [
        ("\u{200B}", #"\u{200b}"#), ("\u{200C}", #"\u{200c}"#), ("\u{200D}", #"\u{200d}"#), ("\u{200E}", #"\u{200e}"#),
        ("\u{200F}", #"\u{200f}"#), ("\u{202A}", #"\u{202a}"#), ("\u{202E}", #"\u{202e}"#), ("\u{2060}", #"\u{2060}"#),
        ("\u{2064}", #"\u{2064}"#), ("\u{2066}", #"\u{2066}"#), ("\u{2069}", #"\u{2069}"#), ("\u{FEFF}", #"\u{feff}"#),
        ("\u{E0000}", #"\u{e0000}"#), ("\u{E0001}", #"\u{e0001}"#), ("\u{E0041}", #"\u{e0041}"#), ("\u{E007F}", #"\u{e007f}"#),
        // Other format characters (Cf) and invisible or space-like ones.
        ("\u{00AD}", #"\u{ad}"#), ("\u{061C}", #"\u{61c}"#), ("\u{180E}", #"\u{180e}"#), ("\u{FFF9}", #"\u{fff9}"#),
        ("\u{110BD}", #"\u{110bd}"#), ("\u{1D173}", #"\u{1d173}"#), ("\u{FE0F}", #"\u{fe0f}"#), ("\u{034F}", #"\u{34f}"#),
        ("\u{3164}", #"\u{3164}"#), ("\u{00A0}", #"\u{a0}"#), ("\u{2003}", #"\u{2003}"#), ("\u{3000}", #"\u{3000}"#),
    ]

    func path(_ scalar: Unicode.Scalar) -> String { "conf/a" + String(scalar) + "b/key.txt" }

    func result(paths: [String]) -> ScanResult {
        let findings = paths.enumerated().map { n, path -> Finding in
            var location = Location(kind: .file, path: path, byteOffset: 0, byteLength: 10)
            location.line = 1; location.column = 1
            return Finding(rule: "demo-rule", description: "Demo", fingerprint: String(format: "%016x", n),
                           secretHash: "fedcba9876543210", location: location)
        }
        return ScanResult(findings: findings, issues: paths.map { ScanIssue(path: $0, message: "not read") }, stats: ScanStats(),
                          rules: [RuleInfo(id: "demo-rule", description: "Demo", tags: [])])
    }

    /// Fails when `text` holds any of the characters raw.
    func assertNoneRaw(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for (scalar, _) in invisible where text.unicodeScalars.contains(scalar) {
            XCTFail("\(what) holds U+\(String(scalar.value, radix: 16, uppercase: true)) raw", file: file, line: line)
        }
    }

    func testDisplayTextEscapesInvisibleCharactersAndKeepsVisibleOnes() {
        for (scalar, escape) in invisible {
            XCTAssertTrue(DisplayText.needsEscape(scalar), "U+\(String(scalar.value, radix: 16))")
            XCTAssertEqual(DisplayText.escaped(path(scalar)), "conf/a" + escape + "b/key.txt")
        }
        XCTAssertNotEqual(DisplayText.escaped(path("\u{200B}")), DisplayText.escaped("conf/ab/key.txt"), "two files never print alike")
        // Letters, marks, symbols and emoji (without a variation selector) print as they are.
        for plain in ["Sources/Ünïcode/日本.swift", "café/naïve", "مرحبا/שלום", "😀.txt", "a b.txt", "e\u{301}.txt"] {
            XCTAssertEqual(DisplayText.escaped(plain), plain)
        }
    }

    func testEveryReportFormatEscapesThem() throws {
        let paths = invisible.map { path($0.0) }
        let r = result(paths: paths)
        let text = TextReporter.report(r)
        assertNoneRaw(text, "text")
        for (scalar, escape) in invisible { XCTAssertTrue(text.contains("conf/a" + escape + "b/key.txt:1:1: "), "text: U+\(String(scalar.value, radix: 16))") }
        assertNoneRaw(CSVReporter.report(r), "CSV")
        let html = HTMLReporter.report(r)
        assertNoneRaw(html, "HTML")
        // Escaped once, as in text: the place is printable already, and HTML adds only its own escapes.
        XCTAssertTrue(html.contains(#"conf/a\u{200b}b/key.txt:1:1"#), "HTML")
        XCTAssertFalse(html.contains(#"\\u{"#), "HTML escapes a place once")
        XCTAssertTrue(HTMLReporter.report(result(paths: ["a\nb<c>.txt"])).contains(#"a\nb&lt;c&gt;.txt:1:1"#))
        assertNoneRaw(JUnitReporter.report(r), "JUnit")
    }

    func testJSONAndSARIFWriteThemAsEscapesThatParseBackToThePath() throws {
        let paths = invisible.map { path($0.0) }
        let r = result(paths: paths)
        let json = JSONReporter.report(r)
        assertNoneRaw(json, "JSON")
        let object = try XCTUnwrap(JSONReport.object(json))
        let parsed = (object["findings"] as! [[String: Any]]).map { ($0["location"] as! [String: Any])["path"] as! String }
        XCTAssertEqual(parsed.map { Array($0.unicodeScalars) }, paths.map { Array($0.unicodeScalars) }, "JSON keeps each path exactly")
        XCTAssertTrue(json.contains(#""path": "conf/a\u200bb/key.txt""#), "a BMP character as one \\u escape")
        XCTAssertTrue(json.contains(#""path": "conf/a\udb40\udc41b/key.txt""#), "a tag character as its surrogate pair")
        let lines = JSONReporter.reportLines(r)
        assertNoneRaw(lines, "JSONL")
        for line in lines.split(separator: "\n") { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
        let sarif = SARIFReporter.report(r)
        assertNoneRaw(sarif, "SARIF")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(sarif.utf8)), "SARIF stays valid JSON")
    }
}
