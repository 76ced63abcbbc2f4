import Foundation
import XCTest
import ScanCore
@testable import MatchEngine

/// Weak but real passwords in slots that hold nothing but a credential (a connection string's
/// `Password=`, a URI's userinfo, `curl -u`, NuGet's `ClearTextPassword`, a Kubernetes Secret's
/// value): any value there that is not a documented placeholder is reported, at low
/// confidence; placeholders (`secret`, `myPassword`, the user's name again, a value describing
/// itself) are none; code keeps its stricter rules. Values are built from pieces at run time.
final class NamedCredentialSlotTests: XCTestCase {
    let pass = NamedCredentialPass(providers: ["MapQuest"])
    /// Weak passwords: a word, two words joined by `_`, CamelCase words, a word with a `)`.
    let word = "mari" + "gold"
    let joined = "rose" + "_" + "garden"
    let camel = "Release" + "Feed" + "Password"
    let paren = "Gorse" + ")" + "Lark7"
    let random = "Rk7Tz2" + "Vq9LmX4pWc8Hs3"

    private func found(_ text: String) -> [String] { pass.scan(text).map(\.secret) }
    private func confidences(_ text: String) -> [Confidence] { pass.scan(text).map(\.confidence) }

    func testWeakPasswordsInSlotsAreReportedAtLowConfidence() {
        XCTAssertEqual(found("Server=db01;User ID=app;Password=\(joined);Encrypt=true"), [joined])
        XCTAssertEqual(found("<add key=\"ClearTextPassword\" value=\"\(word)\" />"), [word])
        XCTAssertEqual(found("<add key=\"ClearTextPassword\" value=\"\(camel)\" />"), [camel])
        XCTAssertEqual(found("<add key=\"Password\" value=\"Feed%\(word)1\" />"), ["Feed%\(word)1"])
        XCTAssertEqual(found("mongodb+srv://svc:\(paren)@cluster0.example.net/shop"), [paren])
        XCTAssertEqual(found("curl -u deploy:\(joined) https://ci.example.org"), [joined])
        XCTAssertEqual(confidences("Server=db01;User ID=app;Password=\(joined);\n<add key=\"ClearTextPassword\" value=\"\(camel)\" />\n"),
                       [.low, .low])
    }

    func testPlaceholdersInSlotsAreNone() {
        for value in ["secret", "pass", "password", "myPassword", "thisismypassword", "mysecretpassword", "test123", "changeme",
                      "postgres", "Test_Pass1", "passwd-on-gateway", "smtp_password", "%FeedPassword%", "${DB_PASSWORD}",
                      "\\(password)", "x\\(password)"] {
            XCTAssertEqual(found("Server=db01;User ID=app;Password=\(value);"), [], value)
            XCTAssertEqual(found("postgresql://user:\(value)@localhost/app"), [], value)
        }
        // The user's name again.
        XCTAssertEqual(found("curl -u \(word):\(word) https://ci.example.org"), [])
        // One user and password before a list of hosts: the password ends at the first `@`.
        XCTAssertEqual(found("postgresql://user:secret@host1:5432,user:secret@host2:5433/app"), [])
    }

    /// An environment variable's line holds nothing but its value: under a password's name, a
    /// slot. Lower-case names in code are keyword arguments and keep their rules.
    func testEnvironmentVariablesArePasswordSlots() {
        XCTAssertEqual(found("SERVICE_DB_PASSWORD=\(word)\n"), [word])
        XCTAssertEqual(confidences("export MAIL_PASSWORD=\(joined)   # the relay's\n"), [.low])
        XCTAssertEqual(found("# ADMIN_PASSWORD=\(word)\n"), [word])
        XCTAssertEqual(found("DB_PASSWORD=postgres\nSMTP_PASSWORD=smtp_password\nAPI_PASSWORD=${API_PASSWORD}\n"), [])
        // A test's word for the password it sets.
        XCTAssertEqual(found("\tTOOL_PASSWD=badpassword &&\n\tUI_PASSWORD=WrongPass1\n"), [])
        XCTAssertEqual(found("conn = connect(\n    password=\(word),\n)\n"), [])
        // A weak name (`_PASS`) still wants a mixed value.
        XCTAssertEqual(found("APP_PASS=\(word)\n"), [])
    }

    func testCodeKeepsItsRules() {
        // A bare word or a quoted word alone in code is as often a stand-in or a variable.
        XCTAssertEqual(found("password = \"\(word)\"\n"), [])
        XCTAssertEqual(found("    password = \(joined)\n"), [])
        XCTAssertEqual(found("password: \(camel)\n"), [])
        // CamelCase words outside a slot are a type's name (`password: SecretStr`).
        XCTAssertEqual(found("password = \"\(camel)\"\n"), [])
    }

    // MARK: - Kubernetes Secrets

    private func b64(_ s: String) -> String { Data(s.utf8).base64EncodedString() }
    private func secret(_ entries: String, section: String = "data") -> String {
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n\(section):\n\(entries)"
    }

    func testDockerConfigsAreDecodedAndTheirCredentialJudged() {
        let auth = b64("deploy:" + word + "7")
        let config = b64("{\"auths\":{\"registry.example.org\":{\"username\":\"deploy\",\"auth\":\"\(auth)\"}}}")
        XCTAssertEqual(found(secret("  .dockerconfigjson: \(config)\n")), [config])
        XCTAssertEqual(confidences(secret("  .dockerconfigjson: \(config)\n")), [.low])
        // The older `.dockercfg`, in a block scalar, its `auth` holding the password as written.
        let old = b64("{\"registry.example.org\":{\"auth\":\"\(word)\",\"email\":\"ops@example.org\"}}\n")
        XCTAssertEqual(found(secret("  .dockercfg: |\n    \(old)\n")), [old])
        // A `password` field, random: medium.
        let random = b64("{\"auths\":{\"r.example.org\":{\"username\":\"ci\",\"password\":\"\(self.random)\"}}}")
        XCTAssertEqual(confidences(secret("  .dockerconfigjson: \(random)\n")), [.medium])
        // A placeholder pair: none.
        let placeholder = b64("{\"auths\":{\"r.example.org\":{\"auth\":\"\(b64("admin:password"))\"}}}")
        XCTAssertEqual(found(secret("  .dockerconfigjson: \(placeholder)\n")), [])
        // Under `stringData:` the JSON as written.
        let plain = "{\"auths\":{\"r.example.org\":{\"auth\":\"\(auth)\"}}}"
        XCTAssertEqual(found(secret("  .dockerconfigjson: '\(plain)'\n", section: "stringData")), [plain])
    }

    func testSecretValuesAreJudgedForWhatTheyDecodeTo() {
        // A password with the newline `echo` leaves, under the entry's password name: low.
        let encoded = b64(word + "!7\n")
        XCTAssertEqual(found(secret("  db-password: \(encoded)\n")), [encoded])
        XCTAssertEqual(confidences(secret("  db-password: \(encoded)\n")), [.low])
        // A user:password pair of placeholders, and a user's name: none.
        XCTAssertEqual(found(secret("  extra: \(b64("admin:password"))\n  username: \(b64(word))\n")), [])
        // A database URL's password.
        let url = b64("postgresql://app:\(joined)@db.internal:5432/orders")
        XCTAssertEqual(found(secret("  DATABASE_URL: \(url)\n")), [url])
        // Random bytes are a key; the same bytes named as a certificate are public.
        var state: UInt64 = 11
        let bytes = (0..<32).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let key = Data(bytes).base64EncodedString()
        XCTAssertEqual(confidences(secret("  encryption.key: \(key)\n")), [.medium])
        XCTAssertEqual(found(secret("  tls.crt: \(key)\n")), [])
        // Under `stringData:`, a password as written.
        XCTAssertEqual(found(secret("  db-password: \(word)\n", section: "stringData")), [word])
    }

    // MARK: - Through the rule: keywords, allowlists

    private func builtinRule() throws -> RuleSet {
        let url = Paths.root.appendingPathComponent("Rules").appendingPathComponent("named-credentials.toml")
        return try rules(try String(contentsOf: url, encoding: .utf8))
    }

    /// `-u` on a line a `curl` continues onto holds no keyword of the rule: the command is read
    /// from its `curl`.
    func testContinuedCurlCommandsAreReadFromTheCommand() throws {
        let set = try builtinRule()
        let command = "curl -X POST https://ci.example.org/hook \\\n  -H 'Content-Type: text/plain' \\\n  -d 'ping' \\\n  -u deploy:\(joined)\n"
        XCTAssertEqual(scan(set, command).map(\.secret), [joined])
        // A header on the command's own line and the flag on the next: both, once each.
        let two = "curl -H \"X-Api-Key: \(random)\" \\\n  -u deploy:\(joined) https://ci.example.org\n"
        XCTAssertEqual(scan(set, two).map(\.secret), [random, joined])
        // No continuation: the next line is another command's.
        XCTAssertEqual(scan(set, "curl https://ci.example.org\nfoo -u deploy:\(joined)\n").map(\.secret), [])
    }

    /// The rule's allowlists leave CamelCase words in a password slot and base64 JSON (a Docker
    /// config starts `eyJ` as a JWT does, but has no dot) to the pass.
    func testTheRulesAllowlistsLeaveSlotValuesAlone() throws {
        let set = try builtinRule()
        XCTAssertEqual(scan(set, "<add key=\"ClearTextPassword\" value=\"\(camel)\" />\n").map(\.secret), [camel])
        let config = b64("{\"auths\":{\"registry.example.org\":{\"auth\":\"\(b64("deploy:" + word + "7"))\"}}}")
        XCTAssertTrue(config.hasPrefix("eyJ"))
        XCTAssertEqual(scan(set, secret("  .dockerconfigjson: \(config)\n")).map(\.secret), [config])
        // CamelCase words outside a slot stay a type's name.
        XCTAssertEqual(scan(set, "password: \(camel)\n").map(\.secret), [])
        // Base64 JSON outside a Secret is a document (a pagination token's state), no credential.
        let state = b64("{\"NextToken\": \"\(random)\", \"truncate_amount\": 10}")
        XCTAssertEqual(scan(set, "aws list-things --max-items 10 --starting-token \(state)\n").map(\.secret), [])
    }
}
