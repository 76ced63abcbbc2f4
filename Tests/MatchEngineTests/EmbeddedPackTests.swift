import Foundation
import TOML
import TestSupport
import XCTest
@testable import MatchEngine

/// The builtin pack is embedded as tables parsed at build time (TOMLBinaryFormat) rather
/// than as TOML text: what the loader gets from the decoder must be what it got from the
/// parser, every field of every rule.
final class EmbeddedPackTests: XCTestCase {
    /// What EmbedRulesTool does to each file: parse, drop the examples, encode.
    static func embedded(_ parsed: TOMLTable) -> TOMLTable {
        var table = parsed
        if case .array(let rules)? = table["rules"] {
            table["rules"] = .array(rules.map { value in
                guard case .table(var rule) = value else { return value }
                rule["examples"] = nil
                rule["negativeExamples"] = nil
                return .table(rule)
            })
        }
        return table
    }

    func packFiles() throws -> [(name: String, parsed: TOMLTable)] {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()
        XCTAssertGreaterThan(names.count, 10)
        return try names.map { name in
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            return (name, Self.embedded(try TOMLReader.parse(text, file: name)))
        }
    }

    func testDecodedTablesEqualTheParsedOnes() throws {
        var rules = 0
        for (name, parsed) in try packFiles() {
            let decoded = try TOMLBinaryReader.decode(TOMLBinaryWriter.encode(parsed))
            XCTAssertEqual(decoded, parsed, name)
            XCTAssertEqual(decoded.keys, parsed.keys, name)
            XCTAssertEqual(TOMLPositions.differences(decoded, parsed, name), [], name)
            rules += parsed["rules"]?.arrayValue?.count ?? 0
        }
        XCTAssertGreaterThan(rules, 500)
    }

    func testRuleSetsFromBothAreIdentical() throws {
        var fromText: [RuleFile] = [], fromBinary: [RuleFile] = []
        for (name, parsed) in try packFiles() {
            let decoded = try TOMLBinaryReader.decode(TOMLBinaryWriter.encode(parsed))
            fromText.append(try RuleLoader.load(table: parsed, file: "builtin:" + name, deferCompile: true))
            fromBinary.append(try RuleLoader.load(table: decoded, file: "builtin:" + name, deferCompile: true))
        }
        let a = RuleSet.combining(fromText).0, b = RuleSet.combining(fromBinary).0
        XCTAssertEqual(a.rules.count, b.rules.count)
        XCTAssertGreaterThan(a.rules.count, 500)
        for (x, y) in zip(a.rules, b.rules) {
            XCTAssertEqual(Self.describe(x), Self.describe(y), x.id)
        }
        XCTAssertEqual(a.allowlists.map(Self.describe), b.allowlists.map(Self.describe))
        XCTAssertEqual(a.keywordIndex.keywords, b.keywordIndex.keywords)
        XCTAssertEqual(a.keywordRules, b.keywordRules)
        XCTAssertEqual(a.keywordRuleStart, b.keywordRuleStart)
        XCTAssertEqual(a.unconditionalRules, b.unconditionalRules)
        XCTAssertEqual(fromText.flatMap(\.warnings).map(\.description), fromBinary.flatMap(\.warnings).map(\.description))
    }

    /// Every field the loader reads, as text (patterns by their source).
    static func describe(_ r: Rule) -> String {
        [r.id, r.description, r.regex.pattern, "\(r.secretGroup as Any)", "\(r.entropy as Any)", "\(r.hexEntropy as Any)", "\(r.shortEntropyMargin as Any)", "\(r.keywords)",
         r.path?.pattern ?? "-", "\(r.tags)", "\(r.allowlists.map(describe))", "\(r.examples)", "\(r.negativeExamples)",
         "\(r.source)"].joined(separator: " | ")
    }

    static func describe(_ a: Allowlist) -> String {
        [a.description ?? "-", "\(a.regexes.map(\.pattern))", a.regexTarget.rawValue, "\(a.paths.map(\.pattern))",
         "\(a.stopwords)", "\(a.commits)", a.condition.rawValue, "\(a.targetRules)"].joined(separator: " | ")
    }
}
