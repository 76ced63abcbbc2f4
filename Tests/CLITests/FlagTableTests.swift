import Foundation
import XCTest
@testable import keyshape
import Application
import CommandLineFlags

/// Every flag of the one flag table, for every command: it parses (and changes what was
/// parsed), it needs its value, and a command it does not apply to refuses it.
final class FlagTableTests: XCTestCase {
    /// A value each placeholder accepts.
    func sample(_ flag: Flag) -> String {
        switch flag.value {
        case "N": return "8"
        case "SIZE": return "1MiB"
        case "auto|always|never": return "always"
        case "LEVEL": return "high"
        case "STATUS,...": return "accepted"
        case let v? where v.contains("|"): return "json"
        default: return "x"
        }
    }

    func words(_ command: Invocation.Command) -> [String] { command.rawValue.split(separator: " ").map(String.init) }

    /// Commands that read flags (`help` takes what follows as a topic).
    let commands = Invocation.Command.allCases.filter { $0 != .help }

    func testEveryFlagParsesForEveryCommandItNames() throws {
        XCTAssertGreaterThan(FlagTable.flags.count, 30)
        for flag in FlagTable.flags {
            for command in commands where flag.commands.contains(command) {
                let base = try ArgumentParser.parse(words(command))
                var spellings = [[flag.name] + (flag.value == nil ? [] : [sample(flag)])]
                if let short = flag.short { spellings.append(["-\(short)"] + (flag.value == nil ? [] : [sample(flag)])) }
                if flag.value != nil { spellings.append(["\(flag.name)=\(sample(flag))"]) }
                for spelling in spellings {
                    let parsed: Invocation
                    do { parsed = try ArgumentParser.parse(words(command) + spelling) } catch {
                        XCTFail("\(spelling) for \(command.rawValue): \(error)"); continue
                    }
                    XCTAssertEqual(parsed.command, command)
                    XCTAssertNotEqual(String(describing: parsed), String(describing: base), "\(spelling) changes nothing for \(command.rawValue)")
                }
            }
        }
    }

    func testEveryFlagWithAValueNeedsOne() {
        for flag in FlagTable.flags where flag.value != nil {
            for command in commands where flag.commands.contains(command) {
                XCTAssertThrowsError(try ArgumentParser.parse(words(command) + [flag.name]), "\(flag.name) without a value") { error in
                    XCTAssertEqual((error as? UsageError)?.message, "\(flag.name) needs a value (\(flag.value!))")
                }
            }
        }
    }

    func testEveryFlagIsRefusedByCommandsItDoesNotApplyTo() {
        var refusals = 0
        for flag in FlagTable.flags {
            for command in commands where !flag.commands.contains(command) {
                let args = words(command) + [flag.name] + (flag.value == nil ? [] : [sample(flag)])
                XCTAssertThrowsError(try ArgumentParser.parse(args), "\(flag.name) for \(command.rawValue)") { error in
                    XCTAssertEqual((error as? UsageError)?.message, "\(flag.name) does not apply to `keyshape \(command.rawValue)`")
                }
                refusals += 1
            }
        }
        XCTAssertGreaterThan(refusals, 50)
    }

    func testNamesAreUnique() {
        let names = FlagTable.flags.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let shorts = FlagTable.flags.compactMap(\.short)
        XCTAssertEqual(Set(shorts).count, shorts.count)
    }
}

/// A mistyped command or flag gets the nearest real name; the argument itself is never echoed.
final class SuggestionTests: XCTestCase {
    func testMistypedCommandAndFlagNameTheNearestOne() {
        let command = keyshape(["scna", "."])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("unknown command; did you mean `scan`?"), command.stderr)
        XCTAssertFalse(command.stderr.contains("scna"), "the argument is not echoed")
        let flag = keyshape(["scan", "--formt", "json", "."])
        XCTAssertEqual(flag.status, 2)
        XCTAssertTrue(flag.stderr.contains("did you mean `--format`?"), flag.stderr)
        let far = keyshape(["ghp_notacommandatall"])
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
        XCTAssertFalse(far.stderr.contains("ghp_"), far.stderr)
    }
}
