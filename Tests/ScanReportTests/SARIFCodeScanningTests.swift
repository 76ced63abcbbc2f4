import Foundation
import XCTest
import ScanCore
@testable import ScanReport
import TestSupport

/// What GitHub code scanning reads from keyshape's SARIF: work-tree-relative URIs, a run
/// category, a line hash that is keyshape's value-free fingerprint, full regions, and one
/// result where audit's tree and history report the same secret at the same path.
final class SARIFCodeScanningTests: XCTestCase {
    func run(_ text: String) throws -> [String: Any] {
        let object = try XCTUnwrap(JSONReport.object(text))
        return (object["runs"] as! [[String: Any]])[0]
    }

    func physical(_ result: [String: Any]) -> [String: Any] {
        (result["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any]
    }

    func finding(_ kind: Location.Kind, path: String, commit: String? = nil) -> Finding {
        var l = Location(kind: kind, path: path, byteOffset: 10, byteLength: 20)
        l.line = 2; l.column = 5; l.endLine = 2; l.endColumn = 25; l.commit = commit
        return Finding(rule: "r", description: "R", fingerprint: "00112233aabbccdd", secretHash: "feedfacecafebeef", location: l)
    }

    func testSettingsGiveURIsCategoryAndSourceRoot() throws {
        let result = ScanResult(findings: [finding(.file, path: "app.py")], rules: [RuleInfo(id: "r", description: "R", tags: [])])
        let settings = SARIFSettings(category: "keyshape/scan/", artifactPath: { "src/" + $0 }, sourceRoot: "/w/my repo")
        let run = try run(SARIFReporter.report(result, settings: settings))
        XCTAssertEqual((run["automationDetails"] as! [String: Any])["id"] as? String, "keyshape/scan/")
        let bases = run["originalUriBaseIds"] as! [String: [String: String]]
        XCTAssertEqual(bases["%SRCROOT%"]?["uri"], "file:///w/my%20repo/")
        let r = (run["results"] as! [[String: Any]])[0]
        let artifact = physical(r)["artifactLocation"] as! [String: String]
        XCTAssertEqual(artifact, ["uri": "src/app.py", "uriBaseId": "%SRCROOT%"])
        XCTAssertEqual((r["partialFingerprints"] as! [String: String])["primaryLocationLineHash"], "00112233aabbccdd:1")
        XCTAssertEqual(physical(r)["region"] as! [String: Int], ["startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 25])
    }

    func testHistoryAndStagedLocationsGetFullRegions() throws {
        for kind in [Location.Kind.commit, .staged] {
            var f = finding(kind, path: "a.txt", commit: kind == .commit ? String(repeating: "a", count: 40) : nil)
            f.location.endLine = nil; f.location.endColumn = nil
            let run = try run(SARIFReporter.report(ScanResult(findings: [f])))
            let region = physical((run["results"] as! [[String: Any]])[0])["region"] as! [String: Int]
            XCTAssertEqual(Set(region.keys), ["startLine", "startColumn", "endLine", "endColumn"], "\(kind)")
        }
    }

    func testAuditKeepsTheTreeFindingAndNamesTheCommitsThatAddedIt() throws {
        let c1 = String(repeating: "1", count: 40), c2 = String(repeating: "2", count: 40)
        var elsewhere = finding(.commit, path: "old.txt", commit: c1)
        elsewhere.fingerprint = "9999999999999999"
        let findings = [finding(.commit, path: "a.txt", commit: c2), finding(.commit, path: "a.txt", commit: c1),
                        finding(.file, path: "a.txt"), elsewhere]
        let run = try run(SARIFReporter.report(ScanResult(findings: findings)))
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.count, 2, "the two history findings at a.txt merge into the tree's; old.txt stays")
        let tree = results.first { ($0["message"] as! [String: String])["text"]!.contains("commit") == false }!
        XCTAssertEqual((tree["properties"] as? [String: Any])?["addedInCommits"] as? [String], [c1, c2])
        XCTAssertTrue(results.contains { ((physical($0)["artifactLocation"] as! [String: String])["uri"]) == "old.txt" })
        // JSON keeps both facts.
        let json = try XCTUnwrap(JSONReport.object(JSONReporter.report(ScanResult(findings: findings))))
        XCTAssertEqual((json["findings"] as! [Any]).count, 4)
    }

    func testBinaryRegionIsTheByteSpanInTheFile() throws {
        var l = Location(kind: .binary, path: "App", byteOffset: 3, byteLength: 40)
        l.fileOffset = 4096
        let f = Finding(rule: "r", description: "R", fingerprint: "0", secretHash: "1", location: l)
        let region = physical((try run(SARIFReporter.report(ScanResult(findings: [f])))["results"] as! [[String: Any]])[0])["region"] as! [String: Int]
        XCTAssertEqual(region, ["byteOffset": 4096, "byteLength": 40])
    }
}
