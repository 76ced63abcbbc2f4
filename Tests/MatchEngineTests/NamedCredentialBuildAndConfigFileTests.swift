import Foundation
import XCTest
import ScanCore
@testable import MatchEngine

/// Syntaxes and values the pass once missed: Android's Gradle build fields, bare values in a
/// configuration file's `key = value` block, a credential compared with a literal, keyboard
/// runs in a password a policy shaped, and short hex tokens in headers. Values are built from pieces at run time.
final class NamedCredentialBuildAndConfigFileTests: XCTestCase {
    let pass = NamedCredentialPass(providers: ["MapQuest", "Google"])
    let random = "Rk7Tz2" + "Vq9LmX4pWc8Hs3"
    /// Two words joined: a weak password, or a variable's name in code.
    let joined = "quiet" + "_" + "harbor"

    private func found(_ text: String) -> [String] { pass.scan(text).map(\.secret) }
    private func confidences(_ text: String) -> [Confidence] { pass.scan(text).map(\.confidence) }
    private func providers(_ text: String) -> [String?] { pass.scan(text).map(\.provider) }

    // MARK: - Gradle

    func testGradleBuildFieldsHoldTheirJavaConstant() {
        // Groovy, double quotes: the Java literal's quotes escaped inside the string.
        XCTAssertEqual(found("    buildConfigField \"String\", \"API_KEY\", \"\\\"\(random)\\\"\"\n"), [random])
        // Groovy, single quotes, spaces around the commas.
        XCTAssertEqual(found("buildConfigField 'String' , 'API_KEY' , '\"\(random)\"'\n"), [random])
        // Kotlin's call.
        XCTAssertEqual(found("buildConfigField(\"String\", \"MAPQUEST_KEY\", \"\\\"\(random)\\\"\")\n"), [random])
        XCTAssertEqual(providers("buildConfigField(\"String\", \"MAPQUEST_KEY\", \"\\\"\(random)\\\"\")\n"), ["MapQuest"])
        XCTAssertEqual(confidences("buildConfigField \"String\", \"API_KEY\", \"\\\"\(random)\\\"\"\n"), [.medium])
    }

    func testGradleResourceValuesHoldTheValueAsWritten() {
        XCTAssertEqual(found("resValue \"string\", \"google_maps_key\", \"\(random)\"\n"), [random])
        XCTAssertEqual(providers("resValue \"string\", \"google_maps_key\", \"\(random)\"\n"), ["Google"])
        XCTAssertEqual(found("resValue(\"string\", \"mapquest_api_key\", \"\(random)\")\n"), [random])
    }

    func testGradleFieldsWithNoConstantAreNone() {
        // A property read at build time, a variable, a concatenation, a number, a boolean.
        XCTAssertEqual(found("buildConfigField \"String\", \"API_KEY\", \"\\\"${mapsKey}\\\"\"\n"), [])
        XCTAssertEqual(found("buildConfigField \"String\", \"API_KEY\", mapsKey\n"), [])
        XCTAssertEqual(found("buildConfigField \"String\", \"API_KEY\", \"\\\"\" + props.mapsKey + \"\\\"\"\n"), [])
        XCTAssertEqual(found("buildConfigField \"String\", \"API_KEY\", \"\(random)\"\n"), [])
        XCTAssertEqual(found("buildConfigField \"boolean\", \"USE_API_KEY\", \"true\"\n"), [])
        // Another function's arguments: its second is no name of a value.
        XCTAssertEqual(found("logField \"String\", \"API_KEY\", \"\\\"\(random)\\\"\"\n"), [])
    }

    // MARK: - Configuration files

    func testBareValuesInAConfigurationBlockAreSettings() {
        XCTAssertEqual(found("[mail]\nuser = relay\npassword = \(joined)\n"), [joined])
        XCTAssertEqual(confidences("[mail]\nuser = relay\npassword = \(joined)\n"), [.low])
        XCTAssertEqual(found("user = relay\n// the relay's\n; kept here\n\npassword = \(joined)\nport = 25\n"), [joined])
        XCTAssertEqual(found("db.user=app\ndb.password=\(joined)\n"), [joined])
        // A random key shorter than code's minimum, as a configuration line holds one.
        let short = String(random.prefix(12))
        XCTAssertEqual(found("[vendor]\nregion = eu\nmapquest_key = \(short)\n"), [short])
        XCTAssertEqual(found("region = \"eu\"\nmapquest_key = \(short)\n"), [])
    }

    func testBareValuesAmongCodeStayExpressions() {
        XCTAssertEqual(found("import os\nuser = relay\npassword = \(joined)\n"), [])
        XCTAssertEqual(found("def connect():\n    user = relay\n    password = \(joined)\n"), [])
        // A quoted neighbour: a language with strings, where a bare word is a name.
        XCTAssertEqual(found("host = 'db.internal'\npassword = \(joined)\n"), [])
        XCTAssertEqual(found("user = load_user(cfg)\npassword = \(joined)\n"), [])
        // A line alone is as much code as configuration.
        XCTAssertEqual(found("password = \(joined)\n"), [])
    }

    func testPlaceholdersInAConfigurationBlockAreNone() {
        for value in ["smtp_password", "changeme", "mypassword", "thisismypassword", "secret", "YOURPASSWORD", "%(pw)s"] {
            XCTAssertEqual(found("[db]\nuser = app\npassword = \(value)\n"), [], value)
        }
    }

    // MARK: - Comparisons

    func testACredentialComparedWithALiteralHoldsIt() {
        let weak = "kestrel" + "!Moon7"
        XCTAssertEqual(found("    if password == \"\(weak)\":\n"), [weak])
        XCTAssertEqual(found("if (password === '\(weak)') {\n"), [weak])
        XCTAssertEqual(found("if request.form[\"password\"] != \"\(weak)\":\n"), [weak])
        XCTAssertEqual(found("if api_key == \"\(random)\":\n"), [random])
        XCTAssertEqual(confidences("if password == \"\(weak)\":\n"), [.low])
    }

    func testComparisonsWithNoCredentialLiteralAreNone() {
        XCTAssertEqual(found("if password == \"\":\n"), [])
        XCTAssertEqual(found("if password == \"password\":\n"), [])
        XCTAssertEqual(found("if password == other_password:\n"), [])
        XCTAssertEqual(found("if token_type == \"Bearer\":\n"), [])
        XCTAssertEqual(found("if password == \"kestrel\" + suffix:\n"), [])
    }

    // MARK: - Values

    func testKeyboardRunsInAPolicyShapedPasswordAreWeakPasswords() {
        let walk = "`" + "Qwert" + "9zx"
        XCTAssertEqual(found("password = '\(walk)'\n"), [walk])
        XCTAssertEqual(confidences("password = '\(walk)'\n"), [.low])
        XCTAssertEqual(found("$cfg['password'] = \"As" + "df#7Lm\";\n"), ["As" + "df#7Lm"])
        // Two classes or fewer: a test's stand-in. Under a key's name: a sample.
        XCTAssertEqual(found("password = 'qwe" + "rty99'\n"), [])
        XCTAssertEqual(found("password = 'as" + "dfghjkl'\n"), [])
        XCTAssertEqual(found("api_key = \"Qwert" + "#58\(random)\"\n"), [])
    }

    func testShortHexTokensInHeaders() {
        // 16 hex digits with 2.95 bits a digit: random hex, below the old gate of 3.0.
        let hex = "7c1be07a" + "b9c107ea"
        XCTAssertEqual(found("curl -H \"Token: \(hex)\" https://api.example.org/tasks\n"), [hex])
        XCTAssertEqual(found("curl -H 'X-Auth-Token: \(hex)' https://api.example.org/tasks\n"), [hex])
        hex.utf8.withContiguousStorageIfAvailable { XCTAssertTrue(CredentialValueScorer.looksRandom($0)) }
        // Hex far from random stays out.
        XCTAssertEqual(found("curl -H \"Token: 1111aaaa" + "2222bbbb\" https://api.example.org\n"), [])
        // In code, hex under 32 digits is an id's shape, as before.
        XCTAssertEqual(found("token = \"\(hex)\"\n"), [])
    }
}
