import TOML
import XCTest

/// The shape of configuration the scanner reads: gitleaks-style rule files.
final class GitleaksConfigTests: XCTestCase {
    static let sample = #"""
    # Sample configuration in the gitleaks format.
    title = "Custom Gitleaks configuration"

    [extend]
    useDefault = true
    disabledRules = [ "generic-api-key", "aws-access-token" ]

    [[rules]]
    id = "openai-api-key"
    description = "Found an OpenAI API Key, posing a risk of unauthorized access."
    regex = '''\b(sk-[A-Za-z0-9_\-]{20})\b'''
    secretGroup = 1
    entropy = 3.5
    keywords = ["sk-"]
    tags = ["key", "OpenAI"]

        [[rules.allowlists]]
        description = "ignore example keys"
        condition = "OR"
        regexTarget = "match"
        regexes = [
            '''sk-EXAMPLE''',   # documentation
            "sk-test-[a-z]+",
        ]
        paths = ['''(?i)\.md$''']

        [[rules.allowlists]]
        stopwords = ["example", "dummy"]

    [[rules]]
    id = "private-key"
    description = "Identified a Private Key"
    regex = """(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S-]*?KEY(?: BLOCK)?-----"""
    keywords = ["-----begin"]
    entropy = 4

    [rules.allowlist]
    commits = ["deadbeef"]

    [[rules]]
    id = "no-allowlist"
    path = '''(^|/)\.env$'''

    [[rules]]
    id = "slack-token"
    regex = '''xox[baprs]-([0-9a-zA-Z]{10,48})'''

        [[rules.allowlists]]
        regexes = ['''xoxb-EXAMPLE''']

    [allowlist]
    description = "global allow list"
    paths = [
        '''gitleaks\.toml''',
        '''(.*?)(jpg|gif|doc|pdf|bin)$''',
    ]

    [[allowlists]]
    description = "vendored code"
    targetRules = ["openai-api-key"]
    paths = ['''^vendor/''']

    [[allowlists]]
    regexes = ['''(?i)placeholder''']
    """#

    private var config: TOMLTable!

    override func setUpWithError() throws {
        config = try TOMLReader.parse(Self.sample, file: "gitleaks.toml")
    }

    func testTopLevel() {
        XCTAssertEqual(config.keys, ["title", "extend", "rules", "allowlist", "allowlists"])
        XCTAssertEqual(config["title"]?.stringValue, "Custom Gitleaks configuration")
        let extend = config["extend"]?.tableValue
        XCTAssertEqual(extend?["useDefault"]?.boolValue, true)
        XCTAssertEqual(extend?["disabledRules"]?.arrayValue?.compactMap(\.stringValue), ["generic-api-key", "aws-access-token"])
    }

    func testRules() throws {
        let rules = try XCTUnwrap(config["rules"]?.arrayValue?.compactMap(\.tableValue))
        XCTAssertEqual(rules.map { $0["id"]?.stringValue }, ["openai-api-key", "private-key", "no-allowlist", "slack-token"])

        let openai = rules[0]
        XCTAssertEqual(openai["regex"]?.stringValue, #"\b(sk-[A-Za-z0-9_\-]{20})\b"#)
        XCTAssertEqual(openai["secretGroup"]?.integerValue, 1)
        XCTAssertEqual(openai["entropy"]?.doubleValue, 3.5)
        XCTAssertEqual(openai["tags"]?.arrayValue, [.string("key"), .string("OpenAI")])
        XCTAssertEqual(openai.position, TOMLPosition(line: 8, column: 1))
        XCTAssertEqual(openai.position(of: "regex"), TOMLPosition(line: 11, column: 1))

        let privateKey = rules[1]
        XCTAssertEqual(privateKey["regex"]?.stringValue,
                       #"(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]*?KEY(?: BLOCK)?-----"#)
        XCTAssertEqual(privateKey["entropy"]?.doubleValue, 4)
        XCTAssertEqual(privateKey["allowlist"]?.tableValue?["commits"]?.arrayValue, [.string("deadbeef")])
        XCTAssertNil(privateKey["allowlists"])
        XCTAssertNil(rules[2]["allowlists"])
        XCTAssertEqual(rules[2]["path"]?.stringValue, #"(^|/)\.env$"#)
    }

    func testRuleAllowlistsAttachToTheirRule() throws {
        let rules = try XCTUnwrap(config["rules"]?.arrayValue?.compactMap(\.tableValue))
        let first = try XCTUnwrap(rules[0]["allowlists"]?.arrayValue?.compactMap(\.tableValue))
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(first[0]["condition"]?.stringValue, "OR")
        XCTAssertEqual(first[0]["regexes"]?.arrayValue?.compactMap(\.stringValue), ["sk-EXAMPLE", "sk-test-[a-z]+"])
        XCTAssertEqual(first[0]["paths"]?.arrayValue?.compactMap(\.stringValue), [#"(?i)\.md$"#])
        XCTAssertEqual(first[0].position, TOMLPosition(line: 17, column: 5))
        XCTAssertEqual(first[1]["stopwords"]?.arrayValue?.compactMap(\.stringValue), ["example", "dummy"])

        let last = try XCTUnwrap(rules[3]["allowlists"]?.arrayValue?.compactMap(\.tableValue))
        XCTAssertEqual(last.map { $0["regexes"] }, [.array([.string("xoxb-EXAMPLE")])])
    }

    func testGlobalAllowlists() throws {
        let allowlist = try XCTUnwrap(config["allowlist"]?.tableValue)
        XCTAssertEqual(allowlist["paths"]?.arrayValue?.compactMap(\.stringValue),
                       [#"gitleaks\.toml"#, #"(.*?)(jpg|gif|doc|pdf|bin)$"#])
        let allowlists = try XCTUnwrap(config["allowlists"]?.arrayValue?.compactMap(\.tableValue))
        XCTAssertEqual(allowlists.count, 2)
        XCTAssertEqual(allowlists[0]["targetRules"]?.arrayValue, [.string("openai-api-key")])
        XCTAssertEqual(allowlists[1]["regexes"]?.arrayValue, [.string("(?i)placeholder")])
    }

    func testRoundTripThroughWriter() throws {
        let written = TOMLWriter.write(config)
        XCTAssertEqual(try TOMLReader.parse(written, file: "written.toml"), config)
    }

    func testMistakeInARuleIsLocated() {
        let broken = Self.sample.replacingOccurrences(of: "secretGroup = 1", with: "secretGroup = 1\nid = \"again\"")
        assertError(broken, line: 13, column: 1, "duplicate key (first defined at line")
    }
}
