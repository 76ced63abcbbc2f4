import Foundation
import XCTest
import TestSupport

/// Fixtures/canary holds fake secrets at known places. Every format must find each at
/// the right path, line and column, and no stream or file may hold any 8-byte fragment
/// of any of them.
final class CanaryTests: XCTestCase {
    struct Expected { var path: String; var line: Int; var column: Int; var length: Int; var rule: String }

    let root = Repo.path("Fixtures/canary")

    func expected() throws -> [Expected] {
        try String(contentsOfFile: root + "/expected.tsv", encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let f = line.split(separator: "\t").map(String.init)
                return Expected(path: f[0], line: Int(f[1])!, column: Int(f[2])!, length: Int(f[3])!, rule: f[4])
            }
    }

    /// The secrets, read out of the fixture files at the expected places.
    func secrets() throws -> [String] {
        try expected().map { e in
            let text = try String(contentsOfFile: root + "/" + e.path, encoding: .utf8)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false)[e.line - 1]
            let start = line.unicodeScalars.index(line.unicodeScalars.startIndex, offsetBy: e.column - 1)
            return String(String(line.unicodeScalars[start...]).utf8.prefix(e.length))!
        }
    }

    func testEveryFormatFindsEverySecretAndLeaksNone() throws {
        let expected = try expected()
        let secrets = try secrets()
        XCTAssertEqual(secrets.count, 4)
        XCTAssertTrue(secrets.contains("TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"))
        let tmp = TempDir()
        for format in ["text", "json", "jsonl", "sarif"] {
            let report = tmp.path + "/report.\(format)"
            let baseline = tmp.path + "/baseline-\(format).json"
            let toStdout = keyshape(["scan", root, "--format", format, "--no-progress"], env: keyedEnvironment())
            let toFile = keyshape(["scan", root, "--format", format, "--output", report, "--write-baseline", baseline, "--progress"],
                                  env: keyedEnvironment())
            XCTAssertEqual(toStdout.status, 1, format)
            XCTAssertEqual(toFile.status, 1, format)
            let fileText = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
            let baselineText = (try? String(contentsOfFile: baseline, encoding: .utf8)) ?? ""
            // The same report either way, but for the elapsed time.
            let timeless = { (t: String) in t.split(separator: "\n").filter { !$0.contains("\"seconds\"") } }
            // Text and JSONL on stdout stream file by file; --output has them sorted.
            let streamed = format == "text" || format == "jsonl"
            XCTAssertEqual(streamed ? timeless(fileText).sorted() : timeless(fileText),
                           streamed ? timeless(toStdout.stdout).sorted() : timeless(toStdout.stdout), "--output writes what stdout shows (\(format))")
            XCTAssertFalse(baselineText.isEmpty)
            for secret in secrets {
                for (what, text) in [("stdout", toStdout.stdout), ("stderr", toStdout.stderr), ("stderr with progress", toFile.stderr),
                                     ("report file", fileText), ("baseline", baselineText)] {
                    assertNoFragment(of: secret, in: text, "\(format) \(what)")
                }
            }
            for e in expected {
                switch format {
                case "text":
                    XCTAssertTrue(toStdout.stdout.contains("\(e.path):\(e.line):\(e.column): \(e.rule) "), "text: \(e.path) \(e.rule)")
                case "json", "jsonl":
                    let objects: [[String: Any]]
                    if format == "json" {
                        objects = (try XCTUnwrap(toStdout.report))["findings"] as! [[String: Any]]
                    } else {
                        objects = toStdout.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
                    }
                    XCTAssertTrue(objects.contains { o in
                        let l = o["location"] as! [String: Any]
                        return o["rule"] as? String == e.rule && l["path"] as? String == e.path && l["line"] as? Int == e.line
                            && l["column"] as? Int == e.column && l["byteLength"] as? Int == e.length
                            && l["endColumn"] as? Int == e.column + e.length
                    }, "\(format): \(e.path) \(e.rule)")
                default:
                    // SARIF URIs are relative to the git work tree holding the scanned folder
                    // (this checkout, when it is one), not to the folder.
                    let inWorkTree = FileManager.default.fileExists(atPath: Repo.path(".git"))
                    let uri = (inWorkTree ? "Fixtures/canary/" : "") + e.path
                    let sarif = try XCTUnwrap(toStdout.report)
                    let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
                    XCTAssertTrue(results.contains { r in
                        let phys = (r["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any]
                        let region = phys["region"] as! [String: Any]
                        return r["ruleId"] as? String == e.rule && (phys["artifactLocation"] as! [String: Any])["uri"] as? String == uri
                            && region["startLine"] as? Int == e.line && region["startColumn"] as? Int == e.column
                    }, "sarif: \(e.path) \(e.rule)")
                }
            }
        }
    }

    func testSARIFValidatesAgainstTheOfficialSchema() throws {
        let tmp = TempDir()
        let report = tmp.path + "/r.sarif"
        XCTAssertEqual(keyshape(["scan", root, "--format", "sarif", "--output", report]).status, 1)
        // An error entry too: it goes to toolExecutionNotifications.
        let withError = tmp.path + "/e.sarif"
        XCTAssertEqual(keyshape(["scan", root, root + "/missing", "--format", "sarif", "--output", withError]).status, 2)
        // scripts/test exports KEYSHAPE_PYTHON (the interpreter that has jsonschema); else PATH's python3.
        let v = ProcessInfo.processInfo.environment["KEYSHAPE_PYTHON"].map { runProcess($0, [Repo.path("scripts/validate-sarif"), report, withError]) }
            ?? runProcess("/usr/bin/env", ["python3", Repo.path("scripts/validate-sarif"), report, withError])
        XCTAssertEqual(v.status, 0, v.stderr + v.stdout)
    }

    func testBaselineRoundTripSilencesKnownFindings() throws {
        let tmp = TempDir()
        let baseline = tmp.path + "/b.json"
        XCTAssertEqual(keyshape(["scan", root, "--write-baseline", baseline]).status, 1)
        let again = keyshape(["scan", root, "--baseline", baseline])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
    }

    func testReleaseBinaryHoldsNoExampleSecret() throws {
        // Every «marked» example secret of the rule pack must be absent from the executable.
        let binary = try Data(contentsOf: Binary.url)
        let rulesDir = Repo.path("Rules")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: rulesDir) where name.hasSuffix(".toml") {
            let text = try String(contentsOfFile: rulesDir + "/" + name, encoding: .utf8)
            var rest = text[...]
            while let open = rest.range(of: "«"), let close = rest.range(of: "»", range: open.upperBound..<rest.endIndex) {
                let secret = String(rest[open.upperBound..<close.lowerBound])
                rest = rest[close.upperBound...]
                guard secret.utf8.count >= 12 else { continue }
                checked += 1
                XCTAssertNil(binary.range(of: Data(secret.utf8)), "\(name): an example secret is embedded in the binary")
            }
        }
        XCTAssertGreaterThan(checked, 20)
    }
}
