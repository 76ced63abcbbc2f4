import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// The format registry, and the JUnit and CSV reporters it adds.
final class FormatRegistryTests: XCTestCase {
    let sample = ReporterTests.sample()

    func testRegistryNamesEveryFormatOnceAndRendersEach() {
        XCTAssertEqual(ReportFormat.all.map(\.name), ["text", "json", "jsonl", "sarif", "junit", "csv", "html", "markdown", "gitlab"])
        XCTAssertEqual(ReportFormat.placeholder, "text|json|jsonl|sarif|junit|csv|html|markdown|gitlab")
        XCTAssertEqual(ReportFormat.list(), "text, json, jsonl, sarif, junit, csv, html, markdown or gitlab")
        for format in ReportFormat.all {
            let text = format.render(sample, ReportOptions())
            XCTAssertTrue(text.contains("3f0c9a1b7d2e4c55"), "\(format.name) names the first finding's fingerprint")
        }
        XCTAssertNil(ReportFormat.named("sarif")?.renderRules, "SARIF has no rule list")
        XCTAssertNotNil(ReportFormat.named("json")?.renderRules)
    }

    func testJUnitIsWellFormedXMLWithAFailurePerFindingAndAnErrorPerIssue() throws {
        var hostile = sample
        hostile.findings[0].location.path = "a<b>&\"c'\n\u{1B}d.txt"
        let xml = JUnitReporter.report(hostile)
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed: \(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        XCTAssertEqual(collector.count("testcase"), 3)
        XCTAssertEqual(collector.count("failure"), 2)
        XCTAssertEqual(collector.count("error"), 1)
        XCTAssertEqual(collector.attributes("testsuites").first?["failures"], "2")
        // The escaped name parses back to DisplayText's form: no raw newline or ESC in a name.
        let names = collector.attributes("testcase").compactMap { $0["name"] }
        XCTAssertTrue(names.contains(#"a<b>&"c'\n\x1bd.txt:3:33"#), "\(names)")
        XCTAssertEqual(collector.attributes("failure").first?["type"], "anthropic-api-key")
        XCTAssertFalse(xml.unicodeScalars.contains("\u{1B}"))
        // A clean scan is one passing case, never an empty suite.
        let clean = JUnitReporter.report(ScanResult())
        XCTAssertTrue(clean.contains("tests=\"1\" failures=\"0\" errors=\"0\""), clean)
        XCTAssertFalse(clean.contains("<failure"))
    }

    func testCSVQuotesPerRFC4180AndDefusesFormulas() {
        var r = sample
        r.findings[0].location.path = "=HYPERLINK(\"x\"),y.txt"
        r.findings[1].description = "@cmd"
        r.findings[1].location.path = "-"
        let csv = CSVReporter.report(r)
        let rows = csv.components(separatedBy: "\r\n")
        XCTAssertEqual(rows.count, 4, "header, two findings, the empty rest after the last CRLF")
        XCTAssertEqual(rows[0], CSVReporter.columns.joined(separator: ","))
        XCTAssertTrue(rows[0].hasPrefix("rule,description,fingerprint,secretHash,kind,path,line,column"))
        XCTAssertTrue(rows[1].contains(#","'=HYPERLINK(""x""),y.txt",3,33,"#), rows[1])
        XCTAssertTrue(rows[2].contains(",'@cmd,"), rows[2])
        XCTAssertTrue(rows[2].contains(",binary,'-,"), rows[2])
        XCTAssertTrue(rows[2].contains(",mach-o,arm64,\"__TEXT,__cstring\",7968,0x100001f20,"), rows[2])
        XCTAssertEqual(CSVReporter.cell("a\nb\u{1B}"), #"a\nb\x1b"#, "names escaped as in text output")
        XCTAssertEqual(CSVReporter.cell("+1"), "'+1")
        XCTAssertEqual(CSVReporter.cell("plain"), "plain")
    }

    func testTextColourWrapsOnlyPlaceAndRuleAroundEscapedNames() {
        var r = sample
        r.findings[0].rule = "x\u{1B}[31m"
        let plain = TextReporter.report(r)
        let coloured = TextReporter.report(r, color: true)
        XCTAssertFalse(plain.unicodeScalars.contains("\u{1B}"))
        XCTAssertTrue(coloured.hasPrefix("\u{1B}[36mSources/App/API Keys.swift:3:33\u{1B}[0m: \u{1B}[1;31mx\\x1b[31m\u{1B}[0m ("), coloured)
        // Without keyshape's own codes the coloured report is the plain one.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}[36m", with: "").replacingOccurrences(of: "\u{1B}[1;31m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
        XCTAssertEqual(stripped, plain)
    }

    func testRuleListFormats() throws {
        let rules = [RuleListing(id: "a-key", description: "A, key", tags: ["t"], keywords: ["ak_"], regex: "ak_[0-9]+")]
        let json = try XCTUnwrap(JSONReport.object(RuleListReporter.json(rules)))
        XCTAssertEqual(json["count"] as? Int, 1)
        XCTAssertEqual(((json["rules"] as! [[String: Any]])[0])["regex"] as? String, "ak_[0-9]+")
        XCTAssertEqual(RuleListReporter.jsonLines(rules).split(separator: "\n").count, 1)
        XCTAssertEqual(RuleListReporter.csv(rules), "id,description,tags,keywords\r\na-key,\"A, key\",t,ak_\r\n")
        XCTAssertTrue(RuleListReporter.text(rules).hasSuffix("1 rules\n"))
    }
}

final class ElementCollector: NSObject, XMLParserDelegate {
    var elements: [(String, [String: String])] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append((name, attributes))
    }
    func count(_ name: String) -> Int { elements.filter { $0.0 == name }.count }
    func attributes(_ name: String) -> [[String: String]] { elements.filter { $0.0 == name }.map(\.1) }
}
