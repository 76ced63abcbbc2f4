import XCTest
@testable import MatchEngine

/// A generic rule's match yields to a provider rule's match of the same secret (`GenericYield`):
/// one finding per secret, the provider's.
final class GenericYieldTests: XCTestCase {
    /// Made-up values, joined at run time so no key-shaped literal sits in this file.
    let value = "Qm7XvR2pLk9T" + "zW4nBc8YsJ3d"
    let other = "Zr5Lq8Wm2Xk7" + "Pn4Tv9BsHc6e"

    static let provider = """
    [[rules]]
    id = "acme-api-key"
    regex = '''acme_key = "([A-Za-z0-9]{24})"'''
    keywords = ["acme_key"]

    """
    static let generic = """
    [[rules]]
    id = "generic-api-key"
    regex = '''_key = "([A-Za-z0-9]{24})"'''
    keywords = ["_key ="]

    """

    /// The matches of a scan with the scanner's settings (allowlisted matches handed on,
    /// path and commit conditions left pending): rule id, secret, allowlisted, pending.
    func matches(_ set: RuleSet, _ text: String, yields: Bool = true) -> [String] {
        let matcher = Matcher(ruleSet: set, mode: yields ? .scan : .ruleExamples)
        var bytes = Array(text.utf8)
        var out: [String] = []
        bytes.withUnsafeMutableBytes { buf in
            let raw = UnsafeRawBufferPointer(buf)
            matcher.scan(raw, onMatch: { m in
                let secret = String(decoding: raw[m.secret], as: UTF8.self) == value ? "value" : String(decoding: raw[m.secret], as: UTF8.self) == other ? "other" : "\(m.secret)"
                out.append(set.rules[m.ruleIndex].id + " " + secret + (m.allowlisted ? " allowlisted" : "") + (m.pending != nil ? " pending" : ""))
            }, onFailure: { XCTFail($0.message) })
        }
        return out.sorted()
    }

    func set(_ toml: String) throws -> RuleSet {
        RuleSet.combining([try RuleLoader.load(text: toml, file: "t.toml")]).0
    }

    func testAGenericMatchOfTheSameSecretYieldsWhateverTheOrderOfTheRules() throws {
        let line = "acme_key = \"\(value)\"\n"
        for toml in [Self.provider + Self.generic, Self.generic + Self.provider] {
            XCTAssertEqual(matches(try set(toml), line), ["acme-api-key value"], toml)
            XCTAssertEqual(matches(try set(toml), line, yields: false), ["acme-api-key value", "generic-api-key value"],
                           "both rules match: the yield is what removes one")
        }
    }

    func testAGenericMatchOfAnotherSecretOnTheLineIsStillReported() throws {
        let line = "acme_key = \"\(value)\"; backup_key = \"\(other)\"\n"
        XCTAssertEqual(matches(try set(Self.generic + Self.provider), line), ["acme-api-key value", "generic-api-key other"])
    }

    /// A generic secret inside the provider's (a URL's password) yields; one that only overlaps
    /// it does not.
    func testASecretInsideTheProvidersYieldsAndAnOverlapDoesNot() throws {
        let toml = """
        [[rules]]
        id = "acme-url"
        regex = '''(acme://[a-z]+:[A-Za-z0-9]{24}@[a-z.]+)'''
        keywords = ["acme://"]
        [[rules]]
        id = "url-password"
        tags = ["generic"]
        regex = '''://[a-z]+:([A-Za-z0-9]{24})@'''
        keywords = ["://"]
        [[rules]]
        id = "generic-tail"
        regex = '''([A-Za-z0-9]{12}@[a-z]+\\.[a-z]+/x)'''
        keywords = ["@"]
        """
        let text = "url = acme://ops:\(value)@db.internal/x\n"
        let found = matches(try set(toml), text)
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("acme-url ") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("generic-tail ") }, "runs past the provider's secret: not inside it, kept: \(found)")
        XCTAssertFalse(found.contains { $0.hasPrefix("url-password ") }, "a rule tagged generic yields too: \(found)")
    }

    func testProviderRulesNeverYieldToEachOther() throws {
        let twin = Self.provider.replacingOccurrences(of: "acme-api-key", with: "acme-legacy-key")
        let line = "acme_key = \"\(value)\"\n"
        XCTAssertEqual(matches(try set(Self.provider + twin + Self.generic), line), ["acme-api-key value", "acme-legacy-key value"])
    }

    /// Dropping a generic match never hides a secret that was reported: a provider match an
    /// allowlist suppresses keeps a generic match the allowlist does not suppress.
    func testAnAllowlistedProviderMatchDoesNotHideAReportedGenericOne() throws {
        let line = "acme_key = \"\(value)\"\n"
        let onlyProvider = """
        [[allowlists]]
        targetRules = ["acme-api-key"]
        regexes = ['''^Qm7X''']

        """
        XCTAssertEqual(matches(try set(onlyProvider + Self.provider + Self.generic), line),
                       ["acme-api-key value allowlisted", "generic-api-key value"])
        let every = "[[allowlists]]\nregexes = ['''^Qm7X''']\n\n"
        XCTAssertEqual(matches(try set(every + Self.provider + Self.generic), line), ["acme-api-key value allowlisted"],
                       "both suppressed: counted once")
    }

    /// Path and commit conditions are settled after the matcher (history settles a blob's
    /// matches per path): the generic match yields when both settle alike everywhere, and is
    /// kept when the provider's rule may be dropped at some path.
    func testPendingMatchesYieldOnlyWhenTheySettleAlike() throws {
        let line = "acme_key = \"\(value)\"\n"
        let pathList = "[[allowlists]]\npaths = ['''^vendor/''']\n\n"
        XCTAssertEqual(matches(try set(pathList + Self.provider + Self.generic), line), ["acme-api-key value pending"])
        let pathRule = Self.provider.replacingOccurrences(of: "keywords = [\"acme_key\"]", with: "keywords = [\"acme_key\"]\npath = '''\\.py$'''")
        XCTAssertEqual(matches(try set(pathRule + Self.generic), line), ["acme-api-key value pending", "generic-api-key value"],
                       "the provider's rule runs on .py files only: the generic match stands for every other path")
    }

    /// `rules check` asks each rule whether it finds its own examples: a generic rule's
    /// example that a provider rule also finds still counts for the generic rule.
    func testRulesCheckHoldsAGenericRuleToItsOwnExamples() throws {
        let example = "examples = ['''acme_key = \"«\(value)»\"''']\n"
        let file = try RuleLoader.load(text: Self.provider + example + Self.generic + example, file: "t.toml")
        XCTAssertEqual(RuleChecker.check(files: [file], requireExamples: false).map(\.description), [])
    }
}
