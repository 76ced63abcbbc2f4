import Application
import Datastore

/// The one list of commands. The parser, `--help` (the overview, a command's page, the
/// did-you-mean and no-such-command messages), the completions, the man page and the
/// dispatch in main all read it, so a command is added here (and as a case of
/// `Invocation.Command`, the name the application layer knows it by). Its flags are the
/// flag table's flags that name it (`Flag.commands`).
struct CommandSpec {
    /// How the command is written, for the completions, the man page and the overview: one
    /// form for most, two for `hook` (`hook install`, `hook uninstall`), none for a hidden one.
    struct Form {
        /// The words that name it: `["scan"]`, `["rules", "list"]`, `["hook", "install"]`.
        let words: [String]
        /// The positional arguments, as the usage line writes them.
        let arguments: String
        /// One line for the completions and the man page.
        let summary: String
        /// Its lines in the overview of `keyshape --help`, as printed (none for `help`).
        let overview: String
    }

    let command: Invocation.Command
    /// Other spellings of its first word (`--version`, `-h`).
    var aliases: [String] = []
    let forms: [Form]
    /// Its `--help` page beside its flags; nil: a plain page (a hidden command).
    let help: CommandHelp?
    /// The handler: it is handed the parts of the invocation it reads (the arguments and a
    /// flag group or two), the scanning commands the whole invocation.
    let run: (Invocation, RunContext) throws -> Int32
}

enum CommandTable {
    static let all: [CommandSpec] = scanning + datastore + others

    static func spec(_ command: Invocation.Command) -> CommandSpec {
        // Every case has an entry (CommandTableTests); a missing one is a programming error.
        all.first { $0.command == command }!
    }

    static let scanning: [CommandSpec] = [
        CommandSpec(command: .scan, forms: [
            .init(words: ["scan"], arguments: "[PATH ...]",
                  summary: "scan files and folders (default: .), recursively; source text line by line, Mach-O, ELF and other binaries through their strings",
                  overview: "  keyshape scan [PATH ...]     scan files and folders (default: .); `-` reads standard input\n"),
        ], help: CommandHelp(usage: ["keyshape scan [PATH ...]", "keyshape scan - [--stdin-name NAME]"],
            summary: "Scan files and folders (default: .) recursively; binaries through their strings. `-` reads standard input.",
            exits: CommandHelp.scanning), run: ScanCommand.run),
        CommandSpec(command: .history, forms: [
            .init(words: ["history"], arguments: "[REPO]",
                  summary: "scan every commit of a git repository reachable from any ref, the reflogs and stashes (default REPO: .)",
                  overview: """
                    keyshape history [REPO]      scan a git repository's history: every commit on any ref,
                                                 the reflogs and stashes (default REPO: .)

                  """),
        ], help: CommandHelp(usage: ["keyshape history [REPO]"],
            summary: "Scan every commit reachable from any ref, the reflogs and stashes of a git repository (default REPO: .).",
            exits: CommandHelp.scanning), run: HistoryCommand.run),
        CommandSpec(command: .staged, forms: [
            .init(words: ["staged"], arguments: "[REPO]",
                  summary: "scan what is staged for the next commit (the lines it adds); the pre-commit hook's job",
                  overview: "  keyshape staged [REPO]       scan what is staged for the next commit (added lines only)\n"),
        ], help: CommandHelp(usage: ["keyshape staged [REPO]"],
            summary: "Scan what is staged for the next commit (the lines it adds); the pre-commit hook's job.",
            exits: CommandHelp.scanning), run: StagedCommand.run),
        CommandSpec(command: .hook, forms: [
            .init(words: ["hook", "install"], arguments: "[REPO]",
                  summary: "write a pre-commit hook running `keyshape staged` (or with --pre-push a pre-push hook scanning the pushed commits); an existing hook is chained unless --force",
                  overview: """
                    keyshape hook install [REPO] write a pre-commit hook running `keyshape staged`
                                                 (--pre-push: a pre-push hook scanning the pushed commits)

                  """),
            .init(words: ["hook", "uninstall"], arguments: "[REPO]",
                  summary: "remove the hook keyshape wrote and restore the hook it chained or replaced",
                  overview: """
                    keyshape hook uninstall [REPO]
                                                 remove it, putting back the hook it chained or replaced

                  """),
        ], help: CommandHelp(usage: ["keyshape hook install [REPO]", "keyshape hook uninstall [REPO]"],
            summary: "Write a pre-commit hook that runs `keyshape staged --hook` (--pre-push: a pre-push hook scanning the pushed commits); an existing hook is chained, or with --force replaced. `uninstall` removes only a hook keyshape wrote and puts back the one it chained or replaced.",
            exits: [("0", "the hook was written or removed"), ("2", "usage error, not a git repository, or a hook keyshape did not write")]),
            run: { inv, context in try HookCommand.run(inv.positionals, inv.hookInstall, context) }),
        CommandSpec(command: .audit, forms: [
            .init(words: ["audit"], arguments: "[REPO]",
                  summary: "sources, whole history and build products (--products): one report, one exit status",
                  overview: """
                    keyshape audit [REPO] [--products PATH ...]
                                                 sources, history and build products, one report

                  """),
        ], help: CommandHelp(usage: ["keyshape audit [REPO] [--products PATH ...]"],
            summary: "Scan the sources, the whole history and build products: one report, one exit status.",
            exits: CommandHelp.scanning), run: AuditCommand.run),
    ]

    static let datastore: [CommandSpec] = [
        CommandSpec(command: .sweep, forms: [
            .init(words: ["sweep"], arguments: "[REPO ...]",
                  summary: "the history of many repositories (arguments and --repos FILE) into a --datastore, --jobs at a time; resumable",
                  overview: """
                    keyshape sweep --datastore DB REPO... | --repos FILE
                                                 the history of many repositories into a datastore, resumable

                  """),
        ], help: CommandHelp(usage: ["keyshape sweep --datastore DB REPO ...", "keyshape sweep --datastore DB --repos FILE"],
            summary: "Run `history --datastore DB` for each repository, --jobs repositories at a time, with a line per repository. Resumable: a repository the datastore already holds complete and unchanged (same rules, same refs) is skipped, and one changed since is scanned incrementally.",
            exits: [("0", "every repository was swept and nothing was found"), ("1", "findings were recorded (see `keyshape report`)"),
                    ("2", "usage error, or a repository could not be swept (its line says so)")]),
            run: SweepCommand.run),
        CommandSpec(command: .report, forms: [
            .init(words: ["report"], arguments: "",
                  summary: "the findings recorded in a --datastore, in any format, filtered by --status, --rule, --repo",
                  overview: """
                    keyshape report --datastore DB
                                                 the findings recorded in a datastore, in any format

                  """),
        ], help: CommandHelp(usage: ["keyshape report --datastore DB [--format F] [--status S,...] [--rule ID] [--repo NAME]"],
            summary: "Report the findings recorded in a datastore through the scan reporters (html too). Only open findings unless --status says otherwise.",
            exits: [("0", "nothing to report"), ("1", "findings were reported (or the --exit-code N given)"),
                    ("2", "usage error, the datastore cannot be read or is not keyshape's, or the latest run of a repository recorded errors")]),
            run: { inv, context in try ReportCommand.run(inv.positionals, inv.report, inv.datastore, context) }),
        CommandSpec(command: .summarize, forms: [
            .init(words: ["summarize"], arguments: "",
                  summary: "a --datastore's findings counted by rule, by repository and by secret",
                  overview: """
                    keyshape summarize --datastore DB
                                                 counts by rule, by repository and by secret

                  """),
        ], help: CommandHelp(usage: ["keyshape summarize --datastore DB"],
            summary: "Count a datastore's findings by rule, by repository and by secret (secretHash groups: one key, its places).",
            exits: [("0", "the summary was printed"), ("2", "usage error, or the datastore cannot be read or is not keyshape's")]),
            run: { inv, context in try SummarizeCommand.run(inv.positionals, inv.datastore, context) }),
        CommandSpec(command: .triage, forms: [
            .init(words: ["triage"], arguments: "FINGERPRINT ...",
                  summary: "set a triage --status (and --note) for findings in a --datastore; kept across re-scans",
                  overview: """
                    keyshape triage --datastore DB FINGERPRINT... --status S [--note TEXT]
                                                 record a decision about findings (kept across re-scans)

                  """),
        ], help: CommandHelp(usage: ["keyshape triage --datastore DB FINGERPRINT ... --status \(TriageStatus.placeholder) [--note TEXT]"],
            summary: "Record a decision for findings by fingerprint. Kept across re-scans; anything but open acts as a baseline for report and for later scans into the datastore.",
            exits: [("0", "the status was set"), ("2", "usage error, a fingerprint no recorded finding has (nothing is changed), or the datastore is not keyshape's")]),
            run: { inv, context in try TriageCommand.run(inv.positionals, inv.datastore, context) }),
        CommandSpec(command: .importReports, forms: [
            .init(words: ["import"], arguments: "REPORT.jsonl ...",
                  summary: "merge JSONL reports written elsewhere into a --datastore (idempotent)",
                  overview: """
                    keyshape import --datastore DB REPORT.jsonl...
                                                 merge JSONL reports written elsewhere into a datastore

                  """),
        ], help: CommandHelp(usage: ["keyshape import --datastore DB REPORT.jsonl ... [--repo NAME]"],
            summary: "Merge JSONL reports (keyshape --format jsonl, one per repository) into a datastore; importing one twice adds nothing.",
            exits: [("0", "every report was imported"), ("2", "usage error, a report that cannot be read or parsed (it adds nothing), or the datastore is not keyshape's")]),
            run: { inv, context in try ImportCommand.run(inv.positionals, inv.datastore, context) }),
    ]

    static let others: [CommandSpec] = [
        CommandSpec(command: .rulesList, forms: [
            .init(words: ["rules", "list"], arguments: "", summary: "list the loaded rules: id, description, tags",
                  overview: "  keyshape rules list          list the loaded rules\n"),
        ], help: CommandHelp(usage: ["keyshape rules list"], summary: "List the loaded rules: id, description, tags.",
            exits: [("0", "the rules were listed"), ("2", "usage error, or a rules file could not be loaded")]),
            run: { inv, context in try RulesCommand.list(inv.rules, inv.report, context) }),
        CommandSpec(command: .rulesCheck, forms: [
            .init(words: ["rules", "check"], arguments: "", summary: "run every rule's examples and negative examples; exit 1 on a miss",
                  overview: "  keyshape rules check         run every rule's examples and negative examples\n"),
        ], help: CommandHelp(usage: ["keyshape rules check"], summary: "Run every rule's examples and negative examples through the engine.",
            exits: [("0", "every example behaved"), ("1", "an example was missed or a negative example matched"),
                    ("2", "usage error, or a rules file could not be loaded")]),
            run: { inv, context in try RulesCommand.check(inv.rules, context) }),
        CommandSpec(command: .version, aliases: ["--version", "-V"], forms: [
            .init(words: ["version"], arguments: "", summary: "print keyshape's version and the rule pack's version and size",
                  overview: "  keyshape version\n"),
        ], help: CommandHelp(usage: ["keyshape version"], summary: "Print the version.", exits: [("0", "always")]),
            run: { _, _ in VersionCommand.run() }),
        CommandSpec(command: .help, aliases: ["--help", "-h"], forms: [
            .init(words: ["help"], arguments: "", summary: "print usage and the options", overview: ""),
        ], help: CommandHelp(usage: ["keyshape help [COMMAND]", "keyshape COMMAND --help"], summary: "Show help for keyshape or one command.",
            exits: [("0", "help was shown"), ("2", "no such command")]),
            run: { inv, _ in Terminal.out(try ArgumentParser.helpText(inv)); return 0 }),
        // Not in the usage text: what scripts/package runs to ship completions and the man page.
        CommandSpec(command: .completions, forms: [], help: nil, run: { inv, _ in try ShellCompletions.run(inv.positionals) }),
        CommandSpec(command: .man, forms: [], help: nil, run: { inv, _ in try ManPage.run(inv.positionals) }),
    ]

    /// The first words in order: `scan history staged hook audit ... rules version help`.
    static var topWords: [String] {
        var seen: [String] = []
        for form in all.flatMap(\.forms) where !seen.contains(form.words[0]) { seen.append(form.words[0]) }
        return seen
    }

    /// The commands named by two words starting with `word` (`rules`: `rules list`,
    /// `rules check`); none for `hook`, whose second word is its argument.
    static func commands(under word: String) -> [Invocation.Command] {
        all.filter { $0.command.rawValue.hasPrefix(word + " ") }.map(\.command)
    }
}
