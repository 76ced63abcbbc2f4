import XCTest
@testable import MatchEngine

final class RuleLoaderTests: XCTestCase {
    func loadGitleaks() throws -> RuleFile {
        let url = Paths.fixture("rules/gitleaks-config.toml")
        return try RuleLoader.load(text: String(contentsOf: url, encoding: .utf8), file: "gitleaks-config.toml")
    }

    /// Stopwords are matched lowercased: ASCII ones take a fast path, others Unicode's mapping.
    func testStopwordsAreLowercased() throws {
        let file = try RuleLoader.load(text: "[[allowlists]]\nstopwords = ['ExAmPle_KEY-9', '\u{C9}T\u{C9}', 'x']\n", file: "c.toml", kind: .config)
        XCTAssertEqual(file.allowlists.first?.stopwords, [Array("example_key-9".utf8), Array("\u{e9}t\u{e9}".utf8), Array("x".utf8)])
        XCTAssertEqual(RuleLoader.lowercasedBytes("[@Z`{"), Array("[@z`{".utf8), "only A-Z change")
    }

    func testGitleaksConfigLoadsAsIs() throws {
        let file = try loadGitleaks()
        XCTAssertEqual(file.warnings, [])
        XCTAssertEqual(file.rules.map(\.id), ["acme-token", "acme-webhook", "generic-api-key"])
        XCTAssertEqual(file.useDefault, true)
        XCTAssertEqual(file.disabledRules, ["generic-api-key"])
        let token = file.rules[0]
        XCTAssertEqual(token.description, "ACME API token")
        XCTAssertEqual(token.secretGroup, 1)
        XCTAssertEqual(token.entropy, 3.0)
        XCTAssertEqual(token.keywords, ["acme_"])
        XCTAssertNotNil(token.path)
        XCTAssertEqual(token.tags, ["test", "acme"])
        XCTAssertEqual(token.allowlists.count, 2)
        XCTAssertEqual(token.allowlists[0].condition, .or)
        XCTAssertEqual(token.allowlists[0].stopwords, [Array("dummy".utf8)])
        XCTAssertEqual(token.allowlists[1].condition, .and)
        XCTAssertEqual(token.allowlists[1].regexTarget, .line)
        XCTAssertEqual(token.source.line, 9)
        let hook = file.rules[1]
        XCTAssertEqual(hook.allowlists.count, 1, "[rules.allowlist] (singular) is read too")
        XCTAssertEqual(hook.allowlists[0].commits, ["deadbeef"])
        XCTAssertEqual(hook.allowlists[0].regexTarget, .match)
        XCTAssertEqual(file.allowlists.count, 2)
        XCTAssertEqual(file.allowlists[1].targetRules, ["acme-webhook"])
    }

    func testGitleaksConfigBehaves() throws {
        let (set, _) = RuleSet.combining([try loadGitleaks()])
        XCTAssertEqual(set.rules.map(\.id), ["acme-token", "acme-webhook"], "disabledRules removes the rule")
        let key = "acme_" + "q7Rt2mXz9Lw4Kp8Vn3Bc6Hd1"
        // The matcher alone: the rule's `path` and the allowlists' paths are the scan
        // pipeline's (RuleFilterTests reads this config at paths).
        XCTAssertEqual(scan(set, "TOKEN=\(key)\n"), [Found(rule: "acme-token", secret: key)])
        XCTAssertEqual(scan(set, "TOKEN=acme_" + "examplez9Lw4Kp8Vn3Bc6Hd1\n"), [], "regex allowlist on the secret")
        XCTAssertEqual(scan(set, "TOKEN=acme_" + "q7DUMMYz9Lw4Kp8Vn3Bc6Hd1\n"), [], "stopword, case-insensitive")
        XCTAssertEqual(scan(set, "TOKEN=acme_" + "aaaaaaaaaaaaaaaaaaaaaaaa\n"), [], "entropy gate")
        // AND with a path: unmet without a place, whatever the line says.
        XCTAssertEqual(scan(set, "TOKEN=\(key) # sample\n").count, 1)
        // Global allowlist aimed at one rule.
        XCTAssertEqual(scan(set, "https://hooks.acme.test/AAAAAAAAAAAAAAAA"), [])
        // Joined at run time: a mixed-case `AbCd` is no longer a stopword, so the literal would
        // be a finding of the project's own scan.
        let hook = ["AbCd7xQ2", "mN9pLr4T"].joined()
        XCTAssertEqual(scan(set, "https://hooks.acme.test/\(hook)"), [Found(rule: "acme-webhook", secret: hook)])
    }

    func testUnknownKeysWarnWithFileAndLine() throws {
        let text = """
        [[rules]]
        id = "x"
        regex = '''x([a-z]{4})'''
        keywords = ["x"]
        sevrity = "high"

        [[rules.allowlists]]
        regexs = ['''typo''']

        colour = "blue"
        """
        let file = try RuleLoader.load(text: text, file: "r.toml")
        XCTAssertEqual(file.warnings.map(\.description), [
            // Unknown keys are not named (text from the file); the position says which.
            "r.toml:5:1: warning: rule `x`: unknown key (ignored)",
            "r.toml:8:1: warning: unknown allowlist key (ignored)",
            // After [[rules.allowlists]], a key belongs to that table (TOML's rule).
            "r.toml:10:1: warning: unknown allowlist key (ignored)",
        ])
    }

    func testInvalidRegexNamesRuleFileLineAndOffset() {
        let text = """
        # a comment
        [[rules]]
        id = "broken-rule"
        regex = '''abc(def'''
        """
        XCTAssertThrowsError(try RuleLoader.load(text: text, file: "bad.toml")) { error in
            let d = "\(error)"
            XCTAssertTrue(d.hasPrefix("bad.toml:4:"), d)
            XCTAssertTrue(d.contains("broken-rule"), d)
            XCTAssertTrue(d.contains("at offset 7"), d)
            XCTAssertTrue(d.contains("parenthesis"), d)
        }
    }

    func testMalformedTOMLGivesFileLineColumn() {
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nid = \"x\nregex = 'y'\n", file: "m.toml")) { error in
            let d = "\(error)"
            XCTAssertTrue(d.hasPrefix("m.toml:2:"), d)
        }
    }

    func testMissingFieldsAndWrongTypes() {
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nregex = 'x'\n", file: "a.toml")) { e in
            XCTAssertTrue("\(e)".contains("no `id`"), "\(e)")
        }
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nid = 'a'\n", file: "a.toml")) { e in
            XCTAssertTrue("\(e)".contains("no `regex`"), "\(e)")
        }
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nid = 'a'\nregex = 'x'\nentropy = 'high'\n", file: "a.toml")) { e in
            XCTAssertTrue("\(e)".hasPrefix("a.toml:4:"), "\(e)")
            XCTAssertTrue("\(e)".contains("must be a number"), "\(e)")
        }
        XCTAssertThrowsError(try RuleLoader.load(text: "[[rules]]\nid = 'a'\nregex = '(x)'\nsecretGroup = 3\n", file: "a.toml")) { e in
            XCTAssertTrue("\(e)".contains("secretGroup 3"), "\(e)")
        }
    }

    func testLaterFilesOverrideEarlierRulesById() throws {
        let a = try RuleLoader.load(text: "[[rules]]\nid = 'k'\ndescription = 'first'\nregex = 'aaa'\nkeywords = ['aaa']\n", file: "a.toml")
        let b = try RuleLoader.load(text: "[[rules]]\nid = 'k'\ndescription = 'second'\nregex = 'bbb'\nkeywords = ['bbb']\n", file: "b.toml")
        let (set, notes) = RuleSet.combining([a, b])
        XCTAssertEqual(set.rules.map(\.description), ["second"])
        XCTAssertEqual(notes.count, 1)
    }
}
