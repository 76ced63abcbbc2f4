import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

final class ReporterTests: XCTestCase {
    func sample() -> ScanResult { Self.sample() }

    /// Shared with the other reporter tests.
    static func sample() -> ScanResult {
        var file = Location(kind: .file, path: "Sources/App/API Keys.swift", byteOffset: 112, byteLength: 108)
        file.line = 3; file.column = 33; file.endLine = 3; file.endColumn = 141
        var binary = Location(kind: .binary, path: "build/App", byteOffset: 0x20, byteLength: 40)
        binary.format = "mach-o"; binary.arch = "arm64"; binary.section = "__TEXT,__cstring"
        binary.fileOffset = 0x1f20; binary.virtualAddress = 0x1_0000_1f20
        let findings = [
            Finding(rule: "anthropic-api-key", description: "Anthropic API key", fingerprint: "3f0c9a1b7d2e4c55", secretHash: "9b1d03c4e5f6a7b8", location: file),
            Finding(rule: "anthropic-api-key", description: "Anthropic API key", fingerprint: "aaaabbbbccccdddd", secretHash: "9b1d03c4e5f6a7b8", location: binary),
        ]
        var stats = ScanStats()
        stats.files = 2; stats.bytes = 1000; stats.seconds = 0.4123
        return ScanResult(findings: findings, issues: [ScanIssue(path: "secret.bin", message: "permission denied")], stats: stats,
                          rules: [RuleInfo(id: "anthropic-api-key", description: "Anthropic API key", tags: ["ai"]),
                                  RuleInfo(id: "unused-rule", description: "Unused", tags: [])])
    }

    func testTextLines() {
        XCTAssertEqual(TextReporter.report(sample()), """
        Sources/App/API Keys.swift:3:33: anthropic-api-key (Anthropic API key) [3f0c9a1b7d2e4c55]
        build/App:arm64:__TEXT,__cstring+0x1f20: anthropic-api-key (Anthropic API key) [aaaabbbbccccdddd]

        """)
        XCTAssertTrue(TextReporter.summary(sample()).hasPrefix("keyshape: 2 findings, 1 error; scanned 2 files"))
    }

    func testJSONShapeFollowsTheContract() throws {
        let object = try XCTUnwrap(JSONReport.object(JSONReporter.report(sample())))
        XCTAssertEqual((object["tool"] as! [String: Any])["name"] as? String, "keyshape")
        let findings = object["findings"] as! [[String: Any]]
        XCTAssertEqual(findings.count, 2)
        XCTAssertEqual(Set(findings[0].keys), ["rule", "description", "fingerprint", "secretHash", "severity", "confidence", "location"])
        let loc = findings[0]["location"] as! [String: Any]
        XCTAssertEqual(loc["kind"] as? String, "file")
        XCTAssertEqual(loc["line"] as? Int, 3)
        XCTAssertEqual(loc["endColumn"] as? Int, 141)
        XCTAssertEqual(loc["byteLength"] as? Int, 108)
        let bin = findings[1]["location"] as! [String: Any]
        XCTAssertEqual(bin["virtualAddress"] as? String, "0x100001f20")
        XCTAssertEqual(bin["fileOffset"] as? Int, 0x1f20)
        XCTAssertNil(bin["line"])
        XCTAssertEqual((object["errors"] as! [[String: Any]])[0]["message"] as? String, "permission denied")
        XCTAssertEqual((object["stats"] as! [String: Any])["files"] as? Int, 2)
    }

    /// A finding whose format checksum failed: still reported, low confidence, `checksum: false`
    /// in JSON and JSONL and in the SARIF result's properties; SARIF rules carry `precision`.
    func testChecksumAndConfidenceAreRendered() throws {
        var result = sample()
        result.findings[0].confidence = .low
        result.findings[0].checksum = false
        result.rules = [RuleInfo(id: result.findings[0].rule, description: "d", tags: [], confidence: .high)]
        let object = try XCTUnwrap(JSONReport.object(JSONReporter.report(result)))
        let findings = object["findings"] as! [[String: Any]]
        XCTAssertEqual(findings[0]["confidence"] as? String, "low")
        XCTAssertEqual(findings[0]["checksum"] as? Bool, false)
        XCTAssertNil(findings[1]["checksum"], "no checksum for a rule that has none")
        XCTAssertEqual(findings[1]["confidence"] as? String, "medium")
        let line = try XCTUnwrap(JSONReport.object(JSONReporter.reportLines(result).split(separator: "\n")[0]))
        XCTAssertEqual(line["checksum"] as? Bool, false)
        let sarif = try XCTUnwrap(JSONReport.object(SARIFReporter.report(result)))
        let run = (sarif["runs"] as! [[String: Any]])[0]
        let rule = ((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]]
        XCTAssertEqual((rule[0]["properties"] as! [String: Any])["precision"] as? String, "high")
        let props = (run["results"] as! [[String: Any]])[0]["properties"] as! [String: Any]
        XCTAssertEqual(props["confidence"] as? String, "low")
        XCTAssertEqual(props["checksum"] as? Bool, false)
    }

    /// SARIF rules take security-severity, help and helpUri from the rule's metadata; JSON
    /// findings carry the severity.
    func testRuleMetadataReachesSARIFAndJSON() throws {
        var result = sample()
        let id = result.findings[0].rule
        result.findings[0].severity = .critical
        result.rules = [RuleInfo(id: id, description: "d", tags: [], confidence: .high, severity: .critical,
                                 remediation: "Revoke it in the console.", docs: "https://provider.test/keys")]
        let json = try XCTUnwrap(JSONReport.object(JSONReporter.report(result)))
        XCTAssertEqual((json["findings"] as! [[String: Any]])[0]["severity"] as? String, "critical")
        let sarif = try XCTUnwrap(JSONReport.object(SARIFReporter.report(result)))
        let run = (sarif["runs"] as! [[String: Any]])[0]
        let rule = (((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]])[0]
        XCTAssertEqual((rule["properties"] as! [String: Any])["security-severity"] as? String, "9.5")
        let help = rule["help"] as! [String: String]
        XCTAssertEqual(help["text"], "Revoke it in the console.")
        XCTAssertEqual(help["markdown"], "Revoke it in the console. See [the provider's documentation](https://provider.test/keys).")
        XCTAssertEqual(rule["helpUri"] as? String, "https://provider.test/keys")
        // Without metadata: the generic advice, today's 8.0, no helpUri.
        result.rules = [RuleInfo(id: id, description: "d", tags: [])]
        let plain = try XCTUnwrap(JSONReport.object(SARIFReporter.report(result)))
        let plainRule = ((((plain["runs"] as! [[String: Any]])[0]["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]])[0]
        XCTAssertEqual((plainRule["properties"] as! [String: Any])["security-severity"] as? String, "8.0")
        XCTAssertNil(plainRule["helpUri"])
        XCTAssertEqual((plainRule["help"] as! [String: String])["text"], SARIFReporter.genericHelp)
    }

    func testJSONLIsOneFindingPerLine() throws {
        let lines = JSONReporter.reportLines(sample()).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        for line in lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
    }

    func testJSONEscaping() {
        XCTAssertEqual(JSONWriter.render(.string("a\"b\\c\nd\u{1}é"), pretty: false), "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    func testSARIFStructure() throws {
        let object = try XCTUnwrap(JSONReport.object(SARIFReporter.report(sample())))
        XCTAssertEqual(object["version"] as? String, "2.1.0")
        let run = (object["runs"] as! [[String: Any]])[0]
        let driver = (run["tool"] as! [String: Any])["driver"] as! [String: Any]
        XCTAssertEqual((driver["rules"] as! [[String: Any]]).map { $0["id"] as! String }, ["anthropic-api-key"])
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual((results[0]["partialFingerprints"] as! [String: String])["keyshapeFingerprint/v2"], "3f0c9a1b7d2e4c55")
        let phys = ((results[0]["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])
        XCTAssertEqual((phys["artifactLocation"] as! [String: Any])["uri"] as? String, "Sources/App/API%20Keys.swift")
        XCTAssertEqual((phys["region"] as! [String: Any])["startLine"] as? Int, 3)
        let binRegion = (((results[1]["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["region"] as! [String: Any])
        XCTAssertEqual(binRegion["byteOffset"] as? Int, 0x1f20)
        let invocation = (run["invocations"] as! [[String: Any]])[0]
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
    }

    func testURIEncoding() {
        XCTAssertEqual(SARIFReporter.uriEncode("a b/#x?é"), "a%20b/%23x%3F%C3%A9")
    }

    func testBaselineRoundTrip() throws {
        var findings = sample().findings
        findings[0].baselineCheck = "00112233445566ff"
        let key = (0..<32).map { UInt8($0) }
        let text = BaselineFile.write(findings, key: key)
        XCTAssertEqual(try BaselineFile.read(Data(text.utf8), path: "b.json"), ["3f0c9a1b7d2e4c55", "aaaabbbbccccdddd"])
        let contents = try BaselineFile.load(Data(text.utf8), path: "b.json")
        XCTAssertEqual(contents.key, key)
        XCTAssertEqual(contents.checks, ["00112233445566ff"], "an entry with a check matches by its value check")
        XCTAssertEqual(contents.fingerprints, ["aaaabbbbccccdddd"], "one without, by its fingerprint")
        XCTAssertTrue(contents.legacyFingerprints.isEmpty)
        for f in findings { XCTAssertFalse(text.contains(f.secretHash), "no secret hash in a baseline") }
        // Release 0.2's baselines still load: their fingerprints are matched in 0.2's form.
        let old = #"{"tool": "keyshape", "version": 1, "findings": [{"fingerprint": "4794b636002c7602", "rule": "r", "path": "a"}]}"#
        XCTAssertEqual(try BaselineFile.load(Data(old.utf8), path: "old.json").legacyFingerprints, ["4794b636002c7602"])
        XCTAssertThrowsError(try BaselineFile.load(Data(#"{"version": 2, "findings": []}"#.utf8), path: "nokey.json"))
        XCTAssertThrowsError(try BaselineFile.read(Data("[1,2]".utf8), path: "b.json"))
        // A JSON report works as a baseline too.
        XCTAssertEqual(try BaselineFile.read(Data(JSONReporter.report(sample()).utf8), path: "r.json").count, 2)
    }
}
