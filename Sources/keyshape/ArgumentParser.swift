import Application
import CommandLineFlags
/// Reads `keyshape COMMAND [FLAGS] [ARGS]` using the flag table.
enum ArgumentParser {
    static func parse(_ args: [String]) throws -> Invocation {
        var names: [String] = []
        return try parse(args, names: &names)
    }

    /// The flags `args` gives, by their names only, in order (never a value, never a
    /// positional argument: either could be a key pasted in the wrong place). What the
    /// datastore records of a run's command line.
    static func flagNames(_ args: [String]) -> [String] {
        var names: [String] = []
        _ = try? parse(args, names: &names)
        return names
    }

    private static func parse(_ args: [String], names: inout [String]) throws -> Invocation {
        var inv = Invocation()
        var rest = ArraySlice(args)
        guard let first = rest.popFirst() else { return inv }
        let top = CommandTable.all.filter { ($0.command.rawValue == first && !first.contains(" ")) || $0.aliases.contains(first) }.map(\.command)
        let under = CommandTable.commands(under: first)
        if let command = top.first {
            inv.command = command
            // `help` takes what follows as the topic.
            if command == .help { inv.positionals = Array(rest); return inv }
        } else if !under.isEmpty {
            // `rules list`, `rules check`: the second word names the command.
            let second = rest.popFirst()
            if let command = under.first(where: { $0.rawValue == first + " " + (second ?? "") }) {
                inv.command = command
            } else if second == "--help" || second == "-h" {
                // `rules --help` is `help rules`.
                inv.command = .help
                inv.positionals = [first]
                return inv
            } else {
                let words = under.map { "`" + $0.rawValue.dropFirst(first.count + 1) + "`" }
                throw UsageError(message: "\(first): expected \(words.joined(separator: " or "))")
            }
        } else {
            let commands = CommandTable.topWords
            throw UsageError(message: "unknown command" + suggestion(first, among: commands)
                             + " (expected \(commands.dropLast().joined(separator: ", ")) or \(commands.last!))")
        }
        let command = inv.command
        var parser = FlagParser(flags: FlagTable.flags, unknown: { name, position in
            let shown = looksLikeFlagName(name) ? " `\(name)`" : " at argument \(position)"
            let known = FlagTable.flags.filter { $0.commands.contains(command) }.map(\.name)
            return UsageError(message: "unknown flag\(shown) for `keyshape \(command.rawValue)`"
                              + (looksLikeFlagName(name) ? suggestion(name, among: known) : ""))
        }, positional: { inv, arg, _ in inv.positionals.append(arg) })
        parser.accept = { flag in
            guard flag.commands.contains(command) else {
                throw UsageError(message: "\(flag.name) does not apply to `keyshape \(command.rawValue)`")
            }
        }
        names = try parser.parse(args, from: args.count - rest.count, into: &inv)
        return inv
    }

    /// `; did you mean `NAME`?` for the known name nearest `word` when it is at most two edits
    /// away (half the name for short ones), else nothing. Only the known name is shown,
    /// never the word: an argument is not echoed.
    static func suggestion(_ word: String, among names: [String]) -> String {
        let a = Array(word.utf8)
        guard a.count <= 64 else { return "" }
        var best: (name: String, distance: Int)?
        for name in names {
            let b = Array(name.utf8)
            var row = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var next = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                row = next
            }
            let d = a.isEmpty ? b.count : row[b.count]
            if d <= min(2, max(1, b.count / 2)), d < (best?.distance ?? .max) { best = (name, d) }
        }
        return best.map { "; did you mean `\($0.name)`?" } ?? ""
    }

    /// Arguments are never echoed in errors (a key pasted in the wrong place would reach the
    /// terminal, shell logs and CI output) except an unknown flag's name when it has the
    /// shape of one: `--` and words of lowercase letters and digits, at most 12 each, joined
    /// by single dashes, at most 40 in all (the longest real flag, `--min-string-length`, is 19;
    /// a lowercase key is a long run, which this refuses), or `-` and one letter or digit.
    /// Its attached value (`--name=value`, `-xVALUE`) is never shown.
    static func looksLikeFlagName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let isWordByte: (UInt8) -> Bool = { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) }
        if bytes.count == 2, bytes[0] == UInt8(ascii: "-") {
            return isWordByte(bytes[1]) || (0x41...0x5a).contains(bytes[1])
        }
        guard bytes.count >= 3, bytes.count <= 42, bytes.starts(with: "--".utf8) else { return false }
        let words = bytes.dropFirst(2).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return words.allSatisfy { !$0.isEmpty && $0.count <= 12 && $0.allSatisfy(isWordByte) }
    }

    /// The help an invocation asked for: `keyshape --help` and `keyshape help` the overview;
    /// `keyshape COMMAND --help`, `keyshape help COMMAND` (`rules`, `rules list`, ...) one command.
    static func helpText(_ inv: Invocation) throws -> String {
        if inv.command != .help { return help(for: inv.command) }
        let words = inv.positionals.filter { $0 != "--help" && $0 != "-h" }
        if words.isEmpty { return help(for: nil) }
        let name = words.joined(separator: " ")
        if let command = Invocation.Command(rawValue: name) { return help(for: command) }
        // `help hook install`: a form's words.
        if let spec = CommandTable.all.first(where: { $0.forms.contains { $0.words == words } }) { return help(for: spec.command) }
        // `help rules`: every command under the word.
        if words.count == 1, !CommandTable.commands(under: name).isEmpty { return help(forAll: CommandTable.commands(under: name)) }
        // Not echoed: an argument may be anything (see looksLikeFlagName).
        let topics = CommandTable.topWords.filter { $0 != "help" }.flatMap { [$0] + CommandTable.commands(under: $0).map(\.rawValue) }
        throw UsageError(message: "help: no such command (expected \(topics.joined(separator: ", ")))")
    }

    /// The usage lines of `keyshape --help`, each command's from the command table.
    static var overview: String {
        "Usage:\n" + CommandTable.all.flatMap(\.forms).map(\.overview).joined()
    }

    /// The overview (nil), or one command: its usage, its flags and its exit statuses.
    static func help(for command: Invocation.Command?) -> String {
        guard let command, command != .help else {
            // Every flag once, so this page (and what is generated from the same table) names
            // them all; a command's own page shows only its flags.
            var text = "keyshape \(ScanCoreVersion.string): finds key-shaped secrets and reports where they are, never what they are.\n\n"
                + overview
                + "\nRun `keyshape COMMAND --help` (or `keyshape help COMMAND`) for one command's usage, options and exit status.\n"
                + "\nOptions (each applies to the commands its command's help lists it for):\n"
            for flag in FlagTable.flags { text += optionLine(flag) + "\n" }
            return text
                + "\nExit status: 0 nothing found, 1 findings (or --exit-code), 2 usage or configuration\n"
                + "error, or the scan could not finish (the report still lists what was found).\n"
        }
        return help(forAll: [command])
    }

    static func optionLine(_ flag: Flag) -> String {
        var left = "  "
        left += flag.short.map { "-\($0), " } ?? "    "
        left += flag.name
        if let v = flag.value { left += " " + v }
        let pad = max(2, 38 - left.count)
        return left + String(repeating: " ", count: pad) + flag.help
    }

    /// Several commands that share a word (`rules list` and `rules check`): each one's usage
    /// and exit statuses, and the flags of any of them once.
    static func help(forAll commands: [Invocation.Command]) -> String {
        let helps = commands.map(CommandHelp.of)
        var text = "Usage:\n"
        for h in helps {
            for line in h.usage { text += "  " + line + "\n" }
            if commands.count > 1 { text += "      " + h.summary + "\n" }
        }
        if commands.count == 1 { text += "\n" + helps[0].summary + "\n" }
        let shown = FlagTable.flags.filter { !$0.commands.isDisjoint(with: commands) }
        text += "\nOptions:\n"
        for flag in shown {
            text += optionLine(flag)
            if commands.count > 1 && !commands.allSatisfy(flag.commands.contains) {
                text += " (" + commands.filter(flag.commands.contains).map(\.rawValue).joined(separator: ", ") + ")"
            }
            text += "\n"
        }
        for (command, h) in zip(commands, helps) {
            text += "\nExit status" + (commands.count > 1 ? " of `\(command.rawValue)`" : "") + ":\n"
            for e in h.exits { text += "  \(e.status)  \(e.meaning)\n" }
        }
        return text
    }
}

import ScanCore
enum ScanCoreVersion { static var string: String { KeyshapeVersion.current } }
