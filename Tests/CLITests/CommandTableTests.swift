import XCTest
import Application
@testable import keyshape

/// The command table is the one list of commands: every command the application layer
/// knows has exactly one entry, and the parser finds each by the words the table gives it.
final class CommandTableTests: XCTestCase {
    func testEveryCommandHasOneEntry() {
        for command in Invocation.Command.allCases {
            XCTAssertEqual(CommandTable.all.filter { $0.command == command }.count, 1, command.rawValue)
        }
        XCTAssertEqual(CommandTable.all.count, Invocation.Command.allCases.count)
    }

    func testTheParserReadsEachCommandByItsName() throws {
        for spec in CommandTable.all where spec.command != .help {
            let words = spec.command.rawValue.split(separator: " ").map(String.init)
            XCTAssertEqual(try ArgumentParser.parse(words).command, spec.command, spec.command.rawValue)
            for alias in spec.aliases { XCTAssertEqual(try ArgumentParser.parse([alias]).command, spec.command, alias) }
        }
    }

    /// A form written with two words names either its own command (`rules list`) or its
    /// command and the first argument (`hook install`); the completions rely on it.
    func testTwoWordFormsNameTheirCommand() {
        for spec in CommandTable.all {
            for form in spec.forms {
                XCTAssertTrue(form.words.joined(separator: " ") == spec.command.rawValue || form.words[0] == spec.command.rawValue,
                              form.words.joined(separator: " "))
            }
        }
    }

    /// The overview lists every command it shows in the table's order, and the man page the same forms.
    func testOverviewAndCatalogFollowTheTable() {
        let forms = CommandTable.all.flatMap(\.forms)
        XCTAssertEqual(CommandCatalog.entries.map(\.words), forms.map(\.words))
        var rest = Substring(ArgumentParser.overview)
        for form in forms where !form.overview.isEmpty {
            guard let found = rest.range(of: "keyshape " + form.words.joined(separator: " ")) else {
                return XCTFail("overview lacks \(form.words)")
            }
            rest = rest[found.upperBound...]
        }
    }
}
