import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// Names from scanned files and rules files never reach a report as terminal controls or
/// line breaks: text escapes them visibly, JSON and SARIF as `\u` escapes that parse back
/// to the same name.
final class EscapingTests: XCTestCase {
    /// A name holding every kind of character that must not be printed raw.
    let hostile = "a\nb\rc\td\u{1B}[2Je\u{7F}f\u{9B}31mg\u{202E}h\u{2028}i\\j"

    func testDisplayTextEscapesEveryControlAndKeepsLetters() {
        XCTAssertEqual(DisplayText.escaped(hostile), #"a\nb\rc\td\x1b[2Je\x7ff\u{9b}31mg\u{202e}h\u{2028}i\\j"#)
        XCTAssertEqual(DisplayText.escaped("Sources/Ünïcode/日本.swift"), "Sources/Ünïcode/日本.swift")
        XCTAssertEqual(DisplayText.escaped(bytes: [0x61, 0xFF, 0x62, 0xC3, 0xA9, 0xE2, 0x82, 0x0A]), #"a\xffbé\xe2\x82\n"#)
        XCTAssertTrue(DisplayText.isPlain("__TEXT,__cstring"))
        XCTAssertFalse(DisplayText.isPlain("x\u{1B}"))
    }

    func result(path: String, section: String? = nil) -> ScanResult {
        var location = Location(kind: section == nil ? .file : .binary, path: path, byteOffset: 0, byteLength: 10)
        if let section { location.section = section; location.arch = "arm64\n"; location.fileOffset = 16 } else {
            location.line = 1; location.column = 1
        }
        let finding = Finding(rule: "demo\u{1B}rule", description: "Demo\r\nforged: line", fingerprint: "0123456789abcdef",
                              secretHash: "fedcba9876543210", location: location)
        return ScanResult(findings: [finding], issues: [ScanIssue(path: path, message: "odd \u{1B}[K")], stats: ScanStats(),
                          rules: [RuleInfo(id: "demo\u{1B}rule", description: "Demo\r\nforged: line", tags: ["t\u{7}"])])
    }

    func assertNoRawControls(_ text: String, allowingNewlines: Bool, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for scalar in text.unicodeScalars where scalar != "\n" || !allowingNewlines {
            if DisplayText.needsEscape(scalar) && scalar != "\\" {
                XCTFail("\(what) holds U+\(String(scalar.value, radix: 16)) raw", file: file, line: line)
                return
            }
        }
    }

    func testTextReportIsOneEscapedLinePerFinding() {
        for r in [result(path: hostile), result(path: hostile, section: "__TEXT\n,__c\u{1B}")] {
            let text = TextReporter.report(r)
            XCTAssertEqual(text.split(separator: "\n", omittingEmptySubsequences: false).count, 2, text)
            assertNoRawControls(text, allowingNewlines: true, "text report")
            XCTAssertTrue(text.contains(#"demo\x1brule (Demo\r\nforged: line)"#), text)
        }
        XCTAssertTrue(TextReporter.report(result(path: hostile, section: "__TEXT\n,__c")).contains(#":arm64\n:__TEXT\n,__c+0x10: "#))
    }

    func testJSONAndSARIFEscapeControlsAndParseBackToTheName() throws {
        for r in [result(path: hostile), result(path: hostile, section: "__TEXT\n,__c\u{1B}")] {
            let json = JSONReporter.report(r)
            assertNoRawControls(json, allowingNewlines: true, "JSON")
            let object = try XCTUnwrap(JSONReport.object(json))
            let location = (object["findings"] as! [[String: Any]])[0]["location"] as! [String: Any]
            XCTAssertEqual(location["path"] as? String, hostile, "JSON keeps the name exactly")
            let lines = JSONReporter.reportLines(r)
            assertNoRawControls(lines, allowingNewlines: true, "JSONL")
            XCTAssertEqual(lines.split(separator: "\n").count, 1)
            let sarif = SARIFReporter.report(r)
            assertNoRawControls(sarif, allowingNewlines: true, "SARIF")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(sarif.utf8)))
        }
        XCTAssertTrue(JSONReporter.report(result(path: "x\u{9B}y\u{7F}")).contains(#""path": "x\u009by\u007f""#))
    }
}
