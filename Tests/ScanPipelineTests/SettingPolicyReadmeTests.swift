import Foundation
import XCTest
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// docs/threat-model.md's "Who may set what" table (moved there from README.md) is SettingPolicy's table, row for row, so the two cannot
/// drift: a setting added to one and not the other, or a row whose "who" differs, fails here.
final class SettingPolicyReadmeTests: XCTestCase {
    static let readme = Checkout.url("docs/threat-model.md")

    /// The rows of the table under the `### Who may set what` heading: (setting, who), backticks
    /// around the setting's name dropped.
    func readmeRows() throws -> [(name: String, who: String)] {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(of: "### Who may set what") else {
            XCTFail("docs/threat-model.md has no `### Who may set what` section")
            return []
        }
        var rows: [(String, String)] = []
        var inTable = false
        for line in lines[(heading + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|") else { if inTable { break } else { continue } }
            inTable = true
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0] != "setting", !cells[0].hasPrefix("---") else { continue }
            rows.append((cells[0], cells[1]))
        }
        return rows
    }

    static func plain(_ name: String) -> String { name.replacingOccurrences(of: "`", with: "") }

    func testReadmeTableIsTheSettingPolicyTable() throws {
        let rows = try readmeRows()
        let documented = rows.map { "\(Self.plain($0.name)) \($0.who)" }
        let table = SettingPolicy.entries.map { "\(Self.plain($0.name)) \($0.setBy.rawValue)" }
        XCTAssertEqual(documented, table, "docs/threat-model.md's `Who may set what` rows, in order, are SettingPolicy.entries")
    }

    func testLimitsWhatIsReadAndTheHashKeyAreTheUsers() {
        for name in ["[scan] maxFileSize", "[scan] minStringLength", "[scan] followSymlinks", "[scan] hashKey",
                     "[extend] disabledRules", "[extend] useDefault", "[extend] path"] {
            XCTAssertEqual(SettingPolicy.entry(name)?.setBy, .user, name)
            XCTAssertFalse(SettingPolicy.permits(name, from: .repository), name)
            XCTAssertTrue(SettingPolicy.permits(name, from: .user), name)
        }
        XCTAssertFalse(SettingPolicy.permits("[scan] somethingNew", from: .repository), "unlisted: the user's")
        XCTAssertTrue(SettingPolicy.permits("[[allowlists]] paths", from: .repository))
        XCTAssertEqual(Set(SettingPolicy.entries.map(\.name)).count, SettingPolicy.entries.count, "one row per setting")
    }

    /// A repository's path-only allowlist does not skip reading; the user's does.
    func testOnlyTheUsersPathAllowlistSkipsReading() throws {
        var repository = Allowlist(paths: [try Regex(".*")])
        repository.fromRepository = true
        let rule = Rule(id: "r", description: "", regex: try Regex("x"))
        XCTAssertFalse(RuleSet(rules: [rule], allowlists: [repository]).allowsWholeFile("a.txt", scratch: RuleSet(rules: []).makeScratch()))
        XCTAssertTrue(RuleSet(rules: [rule], allowlists: [Allowlist(paths: [try Regex(".*")])]).allowsWholeFile("a.txt", scratch: RuleSet(rules: []).makeScratch()))
    }
}
