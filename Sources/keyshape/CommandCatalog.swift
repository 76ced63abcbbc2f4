import Application
/// The commands as shell completions and the man page present them, read from the command
/// table. Their flags come from `FlagTable.flags` (filtered by `Flag.commands`), so a flag
/// added to the table reaches `--help`, the completions and the man page at once.
enum CommandCatalog {
    struct Entry {
        /// The words that name the command: `["scan"]`, `["rules", "list"]`.
        let words: [String]
        /// What the parser makes of those words; its flags are the table's flags for it.
        let command: Invocation.Command
        /// The positional arguments, as the usage line writes them.
        let arguments: String
        let summary: String
        /// Whether the positional arguments are paths (files, folders, repositories).
        var takesPaths: Bool { !arguments.isEmpty }

        var name: String { words.joined(separator: " ") }
        var flags: [Flag] { FlagTable.flags.filter { $0.commands.contains(command) } }
    }

    /// Each command's forms, in the command table's order (`hook install` and `hook uninstall` apart).
    static let entries: [Entry] = CommandTable.all.flatMap { spec in
        spec.forms.map { Entry(words: $0.words, command: spec.command, arguments: $0.arguments, summary: $0.summary) }
    }

    static var topWords: [String] { CommandTable.topWords }

    /// The second words of a command that has them (`hook`: install, uninstall).
    static func subWords(of word: String) -> [String] {
        entries.filter { $0.words.count == 2 && $0.words[0] == word }.map { $0.words[1] }
    }

    /// What a flag's value is, read from its placeholder in the table.
    enum ValueKind: Equatable {
        case none
        /// `text|json|jsonl|sarif`
        case choices([String])
        case path
        case text
    }

    static func valueKind(_ flag: Flag) -> ValueKind {
        guard let value = flag.value else { return .none }
        let parts = value.split(separator: "|").map(String.init)
        if parts.count > 1, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }) {
            return .choices(parts)
        }
        if ["FILE", "PATH", "DIR", "REPO"].contains(value) || value.hasSuffix("FILE") { return .path }
        return .text
    }
}
