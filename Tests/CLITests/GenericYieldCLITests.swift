import Foundation
import XCTest
import TestSupport

/// One finding per secret, through the CLI and the builtin pack: where a generic rule
/// (`generic-api-key`) and a provider rule (`mistral-api-key`) match the same secret, the
/// provider's finding is reported alone, in every format and for every kind of input.
final class GenericYieldCLITests: XCTestCase {
    /// Mistral's format (32 alphanumerics) and a token for the generic rule alone: made up,
    /// joined at run time so no key-shaped literal sits in this file.
    let key = "Qm7XvR2pLk9TzW4n" + "Bc8YsJ3dHf6GaE1u"
    let token = "Zr5Lq8Wm2Xk7" + "Pn4Tv9Bs"
    var secrets: [String] { [key, token] }
    var settings: String { "mistral_api_key = \"\(key)\"\ntoken = \"\(token)\"\n" }
    let expected = ["1 mistral-api-key", "2 generic-token"]

    func lines(_ r: ParsedReport) -> [String] { r.findings.map { "\($0.line ?? 0) \($0.rule)" } }

    func testScanReportsTheProviderFindingAloneInJSONAndSARIF() throws {
        let dir = TempDir()
        dir.write("settings.py", settings)
        let alone = keyshapeJSON(["scan", dir.path, "--no-config", "--enable-rule", "generic-api-key"], secrets: secrets)
        XCTAssertEqual(lines(alone), ["1 generic-api-key"], "the generic rule matches the provider's secret; without the provider rule it reports it")

        let r = keyshapeJSON(["scan", dir.path, "--no-config"], secrets: secrets)
        XCTAssertEqual(r.run.status, 1, r.run.stderr)
        XCTAssertEqual(lines(r), expected, "the generic token elsewhere on the file is still reported")

        let sarif = keyshape(["scan", dir.path, "--no-config", "--no-progress", "--format", "sarif"])
        for s in secrets { assertNoFragment(of: s, in: sarif.stdout, "SARIF") }
        let log = try XCTUnwrap(sarif.report)
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let results = run["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.compactMap { $0["ruleId"] as? String }.sorted(), ["generic-token", "mistral-api-key"])
    }

    /// The same in staged files, history, archive members and decoded text: one place in the
    /// engine decides.
    func testEveryKindOfInputGivesOneFindingPerSecret() throws {
        let repo = GitFixture()
        repo.write("settings.py", settings)
        repo.git(["add", "settings.py"])
        XCTAssertEqual(lines(keyshapeJSON(["staged", repo.path, "--no-config"], secrets: secrets)), expected, "staged")
        repo.commit("settings")
        XCTAssertEqual(lines(keyshapeJSON(["history", repo.path, "--no-config"], secrets: secrets)), expected, "history")

        let dir = TempDir()
        dir.write("src/settings.py", settings)
        let tar = runProcess("/bin/tar", ["-czf", dir.path + "/bundle.tgz", "-C", dir.path + "/src", "settings.py"])
        XCTAssertEqual(tar.status, 0, tar.stderr)
        try FileManager.default.removeItem(atPath: dir.path + "/src")
        dir.write("encoded.json", "{\"blob\": \"\(Data(settings.utf8).base64EncodedString())\"}\n")
        let r = keyshapeJSON(["scan", dir.path, "--no-config"], secrets: secrets)
        XCTAssertEqual(r.errors.count, 0, "\(r.errors)")
        XCTAssertEqual(r.findings.filter { $0.path == "bundle.tgz" }.map { "\($0.line ?? 0) \($0.rule)" }, expected, "archive member")
        XCTAssertEqual(r.findings.filter { $0.path == "encoded.json" }.map(\.rule).sorted(), ["generic-token", "mistral-api-key"], "decoded text")
    }

    /// Two generic rules reading one name (`pinata_secret_api_key` names a secret and an API
    /// key): each finds the secret alone, and together they give one finding, of the same
    /// rule, in a folder, a staged file and history. A line with two secrets keeps both.
    func testTwoGenericRulesReadingOneSecretGiveOneFinding() throws {
        let value = "Xq4Lm8Rv2Tz6" + "Wk9Pn3Bs7Hd5"
        let other = "Jc5Nw7Qy3Gf9" + "Vb2Mk8Zr4Tx6"
        let text = "pinata_secret_api_key = \"\(value)\"\nconfig = {\"secret\": \"\(other)\", \"api_key\": \"\(value)\"}\n"
        let dir = TempDir()
        dir.write("pin.py", text)
        for rule in ["generic-secret", "generic-api-key"] {
            let alone = keyshapeJSON(["scan", dir.path, "--no-config", "--enable-rule", rule], secrets: [value, other])
            XCTAssertTrue(alone.findings.contains { $0.line == 1 && $0.rule == rule }, "\(rule) alone finds line 1: \(lines(alone))")
        }
        let scan = keyshapeJSON(["scan", dir.path, "--no-config"], secrets: [value, other])
        XCTAssertEqual(scan.run.status, 1, scan.run.stderr)
        let found = lines(scan)
        XCTAssertEqual(found.filter { $0.hasPrefix("1 ") }.count, 1, "one finding of line 1's secret: \(found)")
        XCTAssertEqual(found.filter { $0.hasPrefix("2 ") }.count, 2, "two secrets on line 2, two findings: \(found)")

        let repo = GitFixture()
        repo.write("pin.py", text)
        repo.git(["add", "pin.py"])
        XCTAssertEqual(lines(keyshapeJSON(["staged", repo.path, "--no-config"], secrets: [value, other])), found, "staged")
        repo.commit("pin")
        XCTAssertEqual(lines(keyshapeJSON(["history", repo.path, "--no-config"], secrets: [value, other])), found, "history")
    }

    /// A baseline written before generic findings yielded lists both findings of the secret:
    /// the provider's fingerprint is unchanged, so the baseline still silences everything.
    func testABaselineWrittenBeforeStillSilencesWhatRemains() throws {
        let dir = TempDir()
        dir.write("settings.py", settings)
        func fingerprints(_ extra: [String]) -> [String: String] {
            let r = keyshapeJSON(["scan", dir.path + "/settings.py", "--no-config"] + extra, secrets: secrets)
            return Dictionary(r.findings.map { ($0.rule, $0.fingerprint) }, uniquingKeysWith: { a, _ in a })
        }
        let now = fingerprints([])
        XCTAssertEqual(now.keys.sorted(), ["generic-token", "mistral-api-key"])
        let providerAlone = fingerprints(["--enable-rule", "mistral-api-key"])
        XCTAssertEqual(now["mistral-api-key"], providerAlone["mistral-api-key"], "the provider finding's fingerprint does not depend on the yield")
        let generic = try XCTUnwrap(fingerprints(["--enable-rule", "generic-api-key"])["generic-api-key"])
        let entries = [("mistral-api-key", now["mistral-api-key"]!), ("generic-api-key", generic), ("generic-token", now["generic-token"]!)]
        let baseline = "{\"tool\": \"keyshape\", \"version\": 2, \"key\": \"" + String(repeating: "0f", count: 32) + "\", \"findings\": ["
            + entries.map { "{\"fingerprint\": \"\($0.1)\", \"rule\": \"\($0.0)\", \"path\": \"settings.py\"}" }.joined(separator: ", ") + "]}\n"
        let before = TempDir()
        before.write("baseline.json", baseline)
        let r = keyshape(["scan", dir.path + "/settings.py", "--no-config", "--no-progress", "--format", "json", "--baseline", before.path + "/baseline.json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let report = try XCTUnwrap(r.report)
        XCTAssertEqual((report["findings"] as? [Any])?.count, 0)
        let suppressed = (report["stats"] as? [String: Any])?["suppressed"] as? [String: Any]
        XCTAssertEqual(suppressed?["baseline"] as? Int, 2, "\(report["stats"] ?? "")")
    }

    /// `rules check` runs examples through the scan pipeline: a generic rule's example that a
    /// provider rule also finds still counts for the generic rule.
    func testRulesCheckHoldsAGenericRuleToItsOwnExamples() throws {
        let dir = TempDir()
        let example = "examples = ['''mistral_api_key = \"«\(key)»\"''']\n"
        dir.write("r.toml", """
        [[rules]]
        id = "acme-mistral-key"
        regex = '''mistral_api_key = "([A-Za-z0-9]{32})"'''
        keywords = ["mistral_api_key"]
        \(example)
        [[rules]]
        id = "generic-acme-key"
        regex = '''_key = "([A-Za-z0-9]{32})"'''
        keywords = ["_key ="]
        \(example)
        """)
        let r = keyshape(["rules", "check", "--no-builtin-rules", "--rules", dir.path + "/r.toml"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }
}
