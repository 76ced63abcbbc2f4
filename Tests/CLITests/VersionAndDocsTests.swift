import Foundation
import XCTest
import TestSupport

/// `keyshape version`, and the completions and man page generated from the flag table:
/// every flag `--help` lists (the table's own rendering) must be in each of them.
final class VersionAndDocsTests: XCTestCase {
    func testVersionNamesTheRulePackAndItsSize() throws {
        let r = keyshape(["version"])
        XCTAssertEqual(r.status, 0)
        let pack = try String(contentsOfFile: Repo.path("Rules/VERSION"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // The count the binary was built with is the count it loads.
        let listed = keyshape(["rules", "list"]).stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(listed.hasSuffix(" rules"), listed)
        let count = listed.dropLast(" rules".count)
        XCTAssertEqual(r.stdout, "keyshape 0.2.0 (rules \(pack), \(count) rules)\n")
        // The same as the rule files hold.
        var inFiles = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Repo.path("Rules")) where name.hasSuffix(".toml") {
            let text = try String(contentsOfFile: Repo.path("Rules/" + name), encoding: .utf8)
            inFiles += text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "[[rules]]" }.count
        }
        XCTAssertEqual(String(inFiles), String(count))
        XCTAssertEqual(keyshape(["--version"]).stdout, r.stdout)
    }

    func testChangelogHasTheVersion() throws {
        let changelog = try String(contentsOfFile: Repo.path("CHANGELOG.md"), encoding: .utf8)
        XCTAssertTrue(changelog.contains("(0.2.0)") || changelog.contains("[0.2.0]"), "CHANGELOG.md has a section for the current version")
    }

    /// The flags as `--help` prints them (from the table): `--name` words after two spaces.
    func flagsInHelp() -> [String] {
        let help = keyshape(["--help"]).stdout
        var flags: [String] = []
        for line in help.split(separator: "\n") where line.hasPrefix("  ") {
            for word in line.split(separator: " ") where word.hasPrefix("--") && word.count > 2 {
                let name = String(word.prefix { $0 != "," && $0 != "=" })
                if !flags.contains(name) { flags.append(name) }
                break
            }
        }
        return flags
    }

    func testCompletionsAndManPageCoverEveryFlag() {
        let flags = flagsInHelp()
        XCTAssertTrue(flags.contains("--format") && flags.contains("--hook") && flags.count > 20, "\(flags)")
        for shell in ["bash", "zsh", "fish"] {
            let r = keyshape(["completions", shell])
            XCTAssertEqual(r.status, 0, r.stderr)
            for flag in flags {
                let spelled = shell == "fish" ? "-l \(flag.dropFirst(2)) " : flag
                XCTAssertTrue(r.stdout.contains(spelled), "\(shell) completion offers \(flag)")
            }
        }
        let man = keyshape(["man"])
        XCTAssertEqual(man.status, 0)
        XCTAssertTrue(man.stdout.hasPrefix(".\\\" Generated"), man.stdout)
        XCTAssertTrue(man.stdout.contains(".TH KEYSHAPE 1 \"\" \"keyshape 0.2.0\""))
        for flag in flags {
            XCTAssertTrue(man.stdout.contains("\\fB" + flag.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "man page documents \(flag)")
        }
        XCTAssertTrue(man.stdout.contains("hook uninstall"))
        XCTAssertEqual(keyshape(["completions", "tcsh"]).status, 2)
    }

    /// A command added to the usage text must reach the completions and the man page too
    /// (they take commands from CommandCatalog, flags from the flag table).
    func testCompletionsAndManPageCoverEveryCommand() {
        let help = keyshape(["--help"]).stdout
        var commands: [String] = []
        for line in help.split(separator: "\n") where line.hasPrefix("  keyshape ") {
            let words = line.split(separator: " ")
            if words.count > 1 { commands.append(String(words[1])) }
        }
        XCTAssertTrue(commands.contains("scan") && commands.contains("hook"), "\(commands)")
        let bash = keyshape(["completions", "bash"]).stdout
        let top = bash.split(separator: "\n").first { $0.contains("compgen -W") }.map(String.init) ?? ""
        let man = keyshape(["man"]).stdout
        for command in commands {
            XCTAssertTrue(top.contains(command), "bash completion offers \(command)")
            XCTAssertTrue(man.contains(".B keyshape \(command)"), "man page synopsis has \(command)")
        }
    }

    /// The bash completion works: run in bash, it offers each command's own flags and choices.
    func testBashCompletionOffersEachCommandsFlags() throws {
        let tmp = TempDir()
        tmp.write("keyshape.bash", keyshape(["completions", "bash"]).stdout)
        func complete(_ words: [String]) -> [String] {
            let script = """
            source '\(tmp.path)/keyshape.bash'
            COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            _keyshape
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            let r = runProcess("/bin/bash", ["-c", script])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(complete(["keyshape", "sta"]), ["staged"])
        XCTAssertEqual(Set(complete(["keyshape", "hook", ""])), ["install", "uninstall"])
        XCTAssertEqual(complete(["keyshape", "scan", "--format", "js"]), ["json", "jsonl"])
        let scanFlags = complete(["keyshape", "scan", "--"])
        XCTAssertTrue(scanFlags.contains("--follow") && !scanFlags.contains("--all-objects"), "\(scanFlags)")
        let historyFlags = complete(["keyshape", "history", "--"])
        XCTAssertTrue(historyFlags.contains("--all-objects") && !historyFlags.contains("--follow"), "\(historyFlags)")
        XCTAssertTrue(complete(["keyshape", "hook", "install", "--"]).contains("--force"))
        XCTAssertTrue(complete(["keyshape", "rules", "check", "--"]).contains("--require-examples"))
    }
}
