import Foundation
import XCTest
@testable import MatchEngine
import TestSupport

enum Paths {
    static let root = Checkout.root
    static func fixture(_ relative: String) -> URL { root.appendingPathComponent("Fixtures").appendingPathComponent(relative) }
}

struct Found: Equatable, CustomStringConvertible {
    var rule: String
    var secret: String
    var description: String { "\(rule): \(secret.count) bytes" }
}

/// A rule set from rule-file text (tests only).
func rules(_ toml: String) throws -> RuleSet {
    RuleSet(rules: try RuleLoader.load(text: toml, file: "t.toml").rules)
}

/// Runs a rule set over text and returns rule ids with the secrets' text (tests only). The
/// matcher alone: rules' paths and allowlists by path or commit are the scan pipeline's
/// (ScanPipelineTests' RuleFilterTests).
func scan(_ set: RuleSet, _ text: String) -> [Found] {
    let matcher = Matcher(ruleSet: set)
    var bytes = Array(text.utf8)
    var out: [Found] = []
    bytes.withUnsafeMutableBytes { buf in
        let raw = UnsafeRawBufferPointer(buf)
        matcher.scan(raw, onMatch: { m in
            out.append(Found(rule: set.rules[m.ruleIndex].id, secret: String(decoding: raw[m.secret], as: UTF8.self)))
        }, onFailure: { _ in })
    }
    return out
}
