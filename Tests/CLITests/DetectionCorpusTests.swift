import Foundation
import XCTest

/// The detection corpus (Fixtures/detection): realistic files of the kinds secrets leak in
/// (framework settings, CI workflows, compose files, Terraform, Kubernetes, tool credential
/// files, deploy scripts, source in a dozen languages, notebooks, Postman collections), holding
/// keys of well over a hundred kinds, and placeholders that keep a real prefix. The manifest
/// (`expected.tsv`: path, line, rule id, or `none` for a line that must give nothing) is
/// asserted exactly with the builtin pack: every expected finding at its line and nothing else.
/// The values are random, written from each provider's documented format; none is real.
final class DetectionCorpusTests: XCTestCase {
    struct Row: Hashable, Comparable, CustomStringConvertible {
        var path: String
        var line: Int
        var rule: String
        static func < (a: Row, b: Row) -> Bool { (a.path, a.line, a.rule) < (b.path, b.line, b.rule) }
        var description: String { "\(path):\(line) \(rule)" }
    }

    static let root = Repo.path("Fixtures/detection")

    func manifest() throws -> (expected: Set<Row>, quiet: Set<String>) {
        let text = try String(contentsOfFile: Self.root + "/expected.tsv", encoding: .utf8)
        var expected = Set<Row>(), quiet = Set<String>()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let n = Int(fields[1]) else { XCTFail("bad manifest row: \(line)"); continue }
            if fields[2] == "none" { quiet.insert("\(fields[0]):\(n)") } else { expected.insert(Row(path: fields[0], line: n, rule: fields[2])) }
        }
        return (expected, quiet)
    }

    func testCorpusGivesExactlyTheManifest() throws {
        let (expected, quiet) = try manifest()
        // The corpus's breadth is part of what it proves.
        XCTAssertGreaterThanOrEqual(Set(expected.map(\.rule)).count, 120, "distinct rule ids the corpus expects")
        XCTAssertGreaterThanOrEqual(quiet.count, 60, "placeholder lines")

        let r = keyshape(["scan", Self.root, "--format", "json", "--no-config", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let report = try XCTUnwrap(r.report)
        XCTAssertEqual((report["errors"] as? [Any])?.count, 0, "\(report["errors"] ?? "")")
        var found = Set<Row>()
        for f in report["findings"] as? [[String: Any]] ?? [] {
            let loc = f["location"] as? [String: Any] ?? [:]
            guard let path = loc["path"] as? String, let line = loc["line"] as? Int, let rule = f["rule"] as? String else {
                XCTFail("finding without a path, line or rule"); continue
            }
            if path == "expected.tsv" { continue }
            found.insert(Row(path: path, line: line, rule: rule))
        }
        let missed = expected.subtracting(found).sorted()
        let extra = found.subtracting(expected).sorted()
        XCTAssertEqual(missed, [], "expected findings not reported")
        XCTAssertEqual(extra.filter { quiet.contains("\($0.path):\($0.line)") }, [], "placeholders reported as keys")
        XCTAssertEqual(extra.filter { !quiet.contains("\($0.path):\($0.line)") }, [], "findings the manifest does not list")
    }

    /// The manifest names only lines that exist, and no line is both expected and quiet.
    func testManifestIsConsistent() throws {
        let (expected, quiet) = try manifest()
        for row in expected {
            XCTAssertFalse(quiet.contains("\(row.path):\(row.line)"), "\(row) is also listed as none")
        }
        for place in Set(expected.map { "\($0.path):\($0.line)" }).union(quiet) {
            let colon = place.lastIndex(of: ":")!
            let path = String(place[..<colon]), line = Int(place[place.index(after: colon)...])!
            let text = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
            XCTAssertLessThanOrEqual(line, text.split(separator: "\n", omittingEmptySubsequences: false).count, place)
        }
    }
}
