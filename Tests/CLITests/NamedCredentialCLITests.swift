import Foundation
import XCTest
import TestSupport

/// The named-credential pass through the CLI and the builtin pack: a finding names the provider
/// from the pass's fixed list, carries the pass's confidence (`--min-confidence medium` hides a
/// weak password), is reported once where another rule reads the same secret, and no value or
/// fragment of one reaches any format. Values are made up and joined at run time.
final class NamedCredentialCLITests: XCTestCase {
    let key = "Rk7Tz2Vq9Lm" + "X4pWc8Hs3Jd"
    let weak = "kestrel" + "!Moon"
    var secrets: [String] { [key, weak] }
    var env: String { "mapquest_key=\(key)\nSMTP_PASSWORD=\(weak)\n" }

    func testTheFindingNamesTheProviderFromTheListAndCarriesItsConfidence() throws {
        let dir = TempDir()
        dir.write("app.env", env)
        let r = keyshape(["scan", dir.path, "--no-config", "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        for s in secrets {
            assertNoFragment(of: s, in: r.stdout, "stdout")
            assertNoFragment(of: s, in: r.stderr, "stderr")
        }
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["generic-named-credential", "generic-named-credential"])
        XCTAssertEqual(findings.map { $0["description"] as? String },
                       ["MapQuest credential (named)", "Credential under a credential's name (named)"])
        XCTAssertEqual(findings.map { $0["confidence"] as? String }, ["medium", "low"])

        let gated = keyshapeJSON(["scan", dir.path, "--no-config", "--min-confidence", "medium"], secrets: secrets)
        XCTAssertEqual(gated.findings.map { $0.line ?? 0 }, [1], "the weak password is low confidence")
    }

    func testNoValueReachesAnyFormat() throws {
        let dir = TempDir()
        dir.write("app.env", env)
        for format in ["text", "json", "jsonl", "sarif", "csv", "junit", "html"] {
            let r = keyshape(["scan", dir.path, "--no-config", "--no-progress", "--format", format])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("MapQuest credential (named)"), "\(format) names the provider")
            for s in secrets {
                assertNoFragment(of: s, in: r.stdout, format)
                assertNoFragment(of: s, in: r.stderr, format)
            }
        }
    }

    func testAnotherRulesFindingOfTheSameSecretStandsAlone() throws {
        let dir = TempDir()
        dir.write("deploy.sh", "./bin/deployctl --token \(key) --env prod\n")
        let r = keyshapeJSON(["scan", dir.path, "--no-config"], secrets: secrets)
        XCTAssertEqual(r.findings.map(\.rule), ["cli-token-flag"])
    }
}
