import Foundation
import XCTest
import ScanCore
@testable import MatchEngine

/// The named-credential pass: each syntax recogniser on examples of its own, the name and
/// value scorers, the confidence, the rule as loaded and matched, and bounded time on inputs
/// built to be worst cases. Values are built from pieces at run time, so this file holds no
/// credential-shaped literal.
final class NamedCredentialTests: XCTestCase {
    let pass = NamedCredentialPass(providers: ["MapQuest", "New Relic", "SendGrid"])
    /// Random-looking values (letters and digits, no real key) and weak passwords.
    let random1 = "Rk7Tz2" + "Vq9LmX4pWc8Hs3"
    let random2 = "Hq8Zr3" + "Tk5Wm9Vx2Lp7Ns"
    let weak1 = "kestrel" + "!Moon"
    let weak2 = "granite" + "^Owl6"

    private func secrets(_ text: String) -> [String] { pass.scan(text).map(\.secret) }

    // MARK: - Syntaxes

    func testAssignmentsInCodeAndConfiguration() {
        XCTAssertEqual(secrets("mapquest_key = \"\(random1)\""), [random1])
        XCTAssertEqual(secrets("MAPQUEST_KEY=\(random1)\n"), [random1])
        XCTAssertEqual(secrets("  \"client_secret\": \"\(random2)\",\n"), [random2])
        XCTAssertEqual(secrets("api_token := \"\(random2)\""), [random2])
        XCTAssertEqual(secrets("  'auth_token' => '\(random1)',"), [random1])
        XCTAssertEqual(secrets("$mail->Password   = '\(weak1)';"), [weak1])
        XCTAssertEqual(secrets("SMTP_PASSWORD=\(weak1)\n"), [weak1])
        XCTAssertEqual(secrets("# DEPLOY_PASSWORD=\(weak2)   # the old one\n"), [weak2])
        XCTAssertEqual(secrets("db.password=\(weak2)\n"), [weak2])
        // JSON's `\/` escape stays inside the value.
        let escaped = "AB12" + random1 + "\\/" + "Wc4"
        XCTAssertEqual(secrets("{\"token\": \"\(escaped)\"}"), [escaped])
    }

    func testQueryParametersAndConnectionStrings() {
        XCTAssertEqual(secrets("https://api.example.org/v2/items?limit=5&api_key=\(random1)&page=2"), [random1])
        XCTAssertEqual(secrets("Server=db01;Database=Orders;User ID=app;Password=\(weak2);Encrypt=true"), [weak2])
        XCTAssertEqual(secrets("Driver={ODBC};Server=db02;Uid=report;Pwd=\(weak1);"), [weak1])
        // Without a server, `;`-separated settings are no connection string.
        XCTAssertEqual(secrets("User ID=app;Password=\(weak2);Database=Erp"), [])
    }

    func testYAMLNextLineAndBlockScalars() {
        XCTAssertEqual(secrets("smtp:\n  password:\n    \(weak1)\n"), [weak1])
        XCTAssertEqual(secrets("github_token: |\n  \(random2)\n"), [random2])
        XCTAssertEqual(secrets("api_key: >-\n  \"\(random1)\"\n"), [random1])
        // A nested mapping under the name is no value.
        XCTAssertEqual(secrets("password:\n  user: admin\n"), [])
    }

    func testXMLElementsAndKeyValuePairs() {
        XCTAssertEqual(secrets("<password>\(weak1)</password>"), [weak1])
        XCTAssertEqual(secrets("<cfg:apiKey>\(random1)</cfg:apiKey>"), [random1])
        XCTAssertEqual(secrets("<add key=\"ClearTextPassword\" value=\"\(weak2)\" />"), [weak2])
        XCTAssertEqual(secrets("<add name=\"SendGridApiKey\" value=\"\(random2)\"/>"), [random2])
    }

    func testCommandLinesAndHeaders() {
        XCTAssertEqual(secrets("curl -H \"X-Sendgrid-Api-Key: \(random1)\" https://api.example.org"), [random1])
        // A fixed UUID: about 4% of random ones are too plain for the value scorer (a run of
        // digits, few letters), which made this line fail now and then.
        let uuid = "9d41c7e2-5b3a" + "-4f86-a0c9-7e5d2b18f4a3"
        XCTAssertEqual(secrets("curl -H 'apikey: \(uuid)' x"), [uuid])
        XCTAssertEqual(secrets("curl -d 'access_token=\(random2)' https://api.example.org/v1"), [random2])
        XCTAssertEqual(secrets("curl -u deploy:\(weak1) https://ci.example.org"), [weak1])
        XCTAssertEqual(secrets("curl --user \"\(random1):\" https://api.example.org"), [random1])
        XCTAssertEqual(secrets("curl --user kevin:'\(weak2)' -X PATCH"), [weak2])
        XCTAssertEqual(secrets("tool login --api-token \(random2) --verbose"), [random2])
        // A header's value is all its string holds: short tokens count there.
        let short = "Sk94H" + "G7f6KB"
        XCTAssertEqual(secrets("curl -X POST --header \"Api-Token: \(short)\""), [short])
        XCTAssertEqual(secrets("let x = Api-Token: \(short)\n"), [])
        XCTAssertEqual(secrets("Authorization: Api-Token \(random1)\n"), [random1])
        XCTAssertEqual(secrets("\"Authorization\": \"Bearer \(random2)\","), [random2])
    }

    func testURLUserinfo() {
        XCTAssertEqual(secrets("postgresql://app:\(weak1)@db.internal:5432/orders"), [weak1])
        XCTAssertEqual(secrets("mongodb+srv://svc:\(weak2)@cluster0.example.net/test"), [weak2])
        XCTAssertEqual(secrets("postgresql://app@db.internal:5432/orders"), [])
    }

    func testCallArgumentsAndKubernetesSecrets() {
        XCTAssertEqual(secrets("token = os.getenv(\"SERVICE_TOKEN\", \"\(random1)\")"), [random1])
        let encoded = Data((random2 + ":" + weak1).utf8).base64EncodedString()
        XCTAssertEqual(secrets("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  extra: \(encoded)\n  .cfg: |\n    \(encoded)\n"),
                       [encoded, encoded])
        // `data:` of anything but a Secret is not read.
        XCTAssertEqual(secrets("kind: ConfigMap\ndata:\n  extra: \(encoded)\n"), [])
    }

    // MARK: - Names

    func testMetadataNamesNameNoCredential() {
        for name in ["token_type", "key_id", "password_policy", "max_tokens", "public_key", "keyboard", "monkey", "secret_name",
                     "password_hash", "csrf_token", "page_token", "new_password", "tokenizer"] {
            XCTAssertEqual(secrets("\(name) = \"\(random1)\""), [], name)
        }
    }

    func testProviderNamesComeFromTheList() {
        let found = pass.scan("MAPQUEST_API_KEY=\(random1)\nnew_relic_license_key: \(random2)\nSOMETHING_KEY=\(random1)\nsomething_key = \"\(random1)\"\n")
        XCTAssertEqual(found.map(\.provider), ["MapQuest", "New Relic", nil])
        XCTAssertEqual(found.map(\.confidence), [.medium, .medium, .low])
        XCTAssertEqual(pass.description(provider: 0), "MapQuest credential (named)")
        XCTAssertNil(pass.description(provider: 7))
    }

    // MARK: - Values and confidence

    func testReferencesAndPlaceholdersAreNoValue() {
        for value in ["${DB_PASSWORD}", "{{ .Values.token }}", "<your-password>", "%s", "$TOKEN", "changeme", "password",
                      "xxxxxxxxxxxxxxxx", "true", "12345678", "2024-01-02", "1.2.3", "/etc/app/secret.json", "https://example.org/x",
                      "settings.API_TOKEN", "DB_PASSWORD", "Enter your password"] {
            XCTAssertEqual(secrets("password = \"\(value)\""), [], value)
        }
        XCTAssertEqual(secrets("password = get_password()\n"), [])
        XCTAssertEqual(secrets("token = self.config.token\n"), [])
        XCTAssertEqual(secrets("password: SecretStr\n"), [])
        XCTAssertEqual(secrets("    password = user_password\n"), [])
    }

    func testConfidenceFollowsNameAndValue() {
        let found = pass.scan("api_key = \"\(random1)\"\npassword = \"\(weak1)\"\nUSER_AUTH=\(random2)\ntoken = \"\(weak1)\"\nuser_auth = \"\(random1)\"\n")
        XCTAssertEqual(found.map(\.secret), [random1, weak1, random2])
        // A weak name is read in configuration, not in code.
        XCTAssertEqual(found.map(\.confidence), [.medium, .low, .low])
    }

    // MARK: - The rule

    private let ruleText = """
    [[rules]]
    id = "generic-named-credential"
    kind = "named-credential"
    description = "Credential under a credential's name (named)"
    keywords = ["password", "_key"]
    providers = ["MapQuest"]
    """

    func testTheRuleRunsThePassNearItsKeywords() throws {
        let set = try rules(ruleText)
        XCTAssertNotNil(set.rules[0].namedCredentials)
        let matcher = Matcher(ruleSet: set)
        let far = String(repeating: "filler line\n", count: 200)
        var bytes = Array("x = 1\nmapquest_key = \"\(random1)\"\npassword = \"\(weak1)\"\n\(far)token = \"\(random2)\"\n".utf8)
        var got: [(String, Confidence?, Int?)] = []
        bytes.withUnsafeMutableBytes { buf in
            let raw = UnsafeRawBufferPointer(buf)
            matcher.scan(raw, onMatch: { m in
                got.append((String(decoding: raw[m.secret], as: UTF8.self), m.confidence, m.provider))
            }, onFailure: { _ in XCTFail("no failure") })
        }
        // `token` is no keyword of this rule, and far from the others: not read.
        XCTAssertEqual(got.map(\.0), [random1, weak1])
        XCTAssertEqual(got.map(\.1), [.medium, .low])
        XCTAssertEqual(got.map(\.2), [0, nil])
    }

    func testAKindRuleHasNoRegexAndAKnownKind() {
        XCTAssertThrowsError(try rules(ruleText + "\nregex = '''x'''\n"))
        XCTAssertThrowsError(try rules(ruleText.replacingOccurrences(of: "named-credential\"", with: "other\"")))
    }

    func testGradeCodesRoundTrip() {
        for confidence in [Confidence.low, .medium, .high] {
            for provider in [nil, 0, 5, 300] {
                let code = NamedGrade.code(confidence: confidence, provider: provider)
                XCTAssertEqual(NamedGrade(code: code), NamedGrade(confidence: confidence, provider: provider))
            }
        }
        XCTAssertEqual(NamedGrade(code: 0), NamedGrade(confidence: nil, provider: nil))
        XCTAssertNil(NamedGrade(code: 4))
    }

    // MARK: - Bounded time (a guard against a hang, not a speed test)

    /// CPU seconds of this process.
    private func cpu() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    private func assertBounded(_ text: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let set = try rules(ruleText.replacingOccurrences(of: "[\"password\", \"_key\"]", with: "[\"password\", \"_key\", \"secret\", \"token\", \"key:\"]"))
        let before = cpu()
        _ = scan(set, text)
        XCTAssertLessThan(cpu() - before, 30, label, file: file, line: line)
    }

    /// 3 MB on one line (a debug build reads about 0.3 MB a second of the worst of these, a
    /// release build ten times that; a pass quadratic in the line would take hours).
    func testOneLongLineScansInBoundedTime() throws {
        // Names and separators with no value, values with no end, quotes.
        try assertBounded(String(repeating: "password=\"", count: 300_000), "open quotes")
        try assertBounded(String(repeating: "x_key: ", count: 430_000), "names without values")
        try assertBounded(String(repeating: "secret_token=" + random1 + "&", count: 90_000), "query parameters")
    }

    func testManyKeysAndBinaryBytesScanInBoundedTime() throws {
        let json = "{" + (0..<10_000).map { "\"k\($0)_key\": \"v\($0)\"" }.joined(separator: ", ") + "}"
        try assertBounded(json, "10,000-key JSON")
        var state: UInt64 = 7
        let binary = String(decoding: (0..<2_000_000).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }, as: UTF8.self) + String(repeating: "data:\n  kind: Secret\n", count: 20_000)
        try assertBounded(binary, "binary bytes and manifests")
    }
}
