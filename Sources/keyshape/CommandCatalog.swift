import Application
/// The commands as shell completions and the man page present them. Their flags are not
/// listed here: those come from `FlagTable.flags` (filtered by `Flag.commands`), so a
/// flag added to the table reaches `--help`, the completions and the man page at once.
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

    static let entries: [Entry] = [
        Entry(words: ["scan"], command: .scan, arguments: "[PATH ...]",
              summary: "scan files and folders (default: .), recursively; source text line by line, Mach-O, ELF and other binaries through their strings"),
        Entry(words: ["history"], command: .history, arguments: "[REPO]",
              summary: "scan every commit of a git repository reachable from any ref, the reflogs and stashes (default REPO: .)"),
        Entry(words: ["staged"], command: .staged, arguments: "[REPO]",
              summary: "scan what is staged for the next commit (the lines it adds); the pre-commit hook's job"),
        Entry(words: ["hook", "install"], command: .hook, arguments: "[REPO]",
              summary: "write a pre-commit hook running `keyshape staged` (or with --pre-push a pre-push hook scanning the pushed commits); an existing hook is chained unless --force"),
        Entry(words: ["hook", "uninstall"], command: .hook, arguments: "[REPO]",
              summary: "remove the hook keyshape wrote and restore the hook it chained or replaced"),
        Entry(words: ["audit"], command: .audit, arguments: "[REPO]",
              summary: "sources, whole history and build products (--products): one report, one exit status"),
        Entry(words: ["sweep"], command: .sweep, arguments: "[REPO ...]",
              summary: "the history of many repositories (arguments and --repos FILE) into a --datastore, --jobs at a time; resumable"),
        Entry(words: ["report"], command: .report, arguments: "",
              summary: "the findings recorded in a --datastore, in any format, filtered by --status, --rule, --repo"),
        Entry(words: ["summarize"], command: .summarize, arguments: "",
              summary: "a --datastore's findings counted by rule, by repository and by secret"),
        Entry(words: ["triage"], command: .triage, arguments: "FINGERPRINT ...",
              summary: "set a triage --status (and --note) for findings in a --datastore; kept across re-scans"),
        Entry(words: ["import"], command: .importReports, arguments: "REPORT.jsonl ...",
              summary: "merge JSONL reports written elsewhere into a --datastore (idempotent)"),
        Entry(words: ["rules", "list"], command: .rulesList, arguments: "",
              summary: "list the loaded rules: id, description, tags"),
        Entry(words: ["rules", "check"], command: .rulesCheck, arguments: "",
              summary: "run every rule's examples and negative examples; exit 1 on a miss"),
        Entry(words: ["version"], command: .version, arguments: "",
              summary: "print keyshape's version and the rule pack's version and size"),
        Entry(words: ["help"], command: .help, arguments: "",
              summary: "print usage and the options"),
    ]

    /// The first words in order: `scan history staged hook audit rules version help`.
    static var topWords: [String] {
        var seen: [String] = []
        for e in entries where !seen.contains(e.words[0]) { seen.append(e.words[0]) }
        return seen
    }

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
