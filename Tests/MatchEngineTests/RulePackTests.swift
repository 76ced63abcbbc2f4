import Foundation
import XCTest
@testable import MatchEngine

/// The builtin pack, read from Rules/ with its examples: every example found exactly at
/// its marked span, no negative example reported by any rule.
final class RulePackTests: XCTestCase {
    func loadPack() throws -> [RuleFile] {
        let dir = Paths.root.appendingPathComponent("Rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".toml") }.sorted()
        return try names.map { try RuleLoader.load(text: String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8), file: "Rules/" + $0) }
    }

    func testPackPassesItsOwnExamples() throws {
        let files = try loadPack()
        for f in files { XCTAssertEqual(f.warnings.map(\.description), []) }
        let problems = RuleChecker.check(files: files, requireExamples: true)
        XCTAssertEqual(problems.map(\.description), [])
    }

    func testPackCoversTheCoreProviders() throws {
        let ids = Set(try loadPack().flatMap { $0.rules.map(\.id) })
        for required in ["anthropic-api-key", "anthropic-admin-api-key", "openai-project-api-key", "openai-legacy-api-key", "github-pat", "aws-access-key-id",
                         "slack-bot-token", "stripe-live-secret-key", "private-key", "jwt", "keyshape-canary", "google-api-key", "huggingface-access-token"] {
            XCTAssertTrue(ids.contains(required) || ids.contains { $0.hasPrefix(required) }, "missing \(required)")
        }
    }
}
