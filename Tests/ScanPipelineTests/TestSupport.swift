import Foundation
import XCTest
import ScanCore
import MatchEngine
import TestSupport
@testable import ScanPipeline

/// The test rules: a canary and a prefixed token, built at run time so this source file
/// never holds a literal the project's own scan would report.
enum TestRules {
    /// `count` upper-case letters in no order a placeholder filter would take for filler
    /// (a repeated letter is a placeholder, not a secret, and is rightly not reported).
    static func upperNoise(_ count: Int) -> String {
        var g = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        return String((0..<count).map { _ in Character(Unicode.Scalar(UInt8(65 + g.below(26)))) })
    }

    static let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"
    static let token = "tok_" + "Zq8Xv2Lm4Np6Rs0Tu1Wy3Ab5"

    static func set(extra: String = "") -> RuleSet {
        let toml = """
        [[rules]]
        id = "canary"
        description = "test canary"
        regex = '''\\b(TEST_SECRET_MUST_NEVER_LEAK_[A-Za-z0-9]{5,})\\b'''
        keywords = ["test_secret_must_never_leak_"]
        [[rules]]
        id = "token"
        description = "test token"
        regex = '''\\b(tok_[A-Za-z0-9]{24})\\b'''
        keywords = ["tok_"]
        entropy = 3.0
        [[rules]]
        id = "pem"
        description = "test private key"
        regex = '''-----BEGIN TEST PRIVATE KEY-----[A-Za-z0-9+/=\\s]{16,}?-----END TEST PRIVATE KEY-----'''
        keywords = ["-----begin test private key-----"]
        \(extra)
        """
        return RuleSet(rules: try! RuleLoader.load(text: toml, file: "test.toml").rules)
    }
}

func runScan(_ paths: [String], rules: RuleSet = TestRules.set(), configure: (inout ScanOptions) -> Void = { _ in }) -> ScanResult {
    var options = ScanOptions(jobs: 2)
    options.hashKey = "test"
    configure(&options)
    return Scanner(ruleSet: rules, options: options).scan(paths: paths).result
}
