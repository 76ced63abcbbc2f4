import Application
import Datastore

/// What `keyshape COMMAND --help` says beside the command's flags (which come from the flag
/// table): how it is called, what it does, and its exit statuses.
struct CommandHelp {
    let usage: [String]
    let summary: String
    let exits: [(status: String, meaning: String)]

    static let scanning: [(status: String, meaning: String)] = [
        ("0", "the scan completed and nothing was reported"),
        ("1", "findings were reported (or the --exit-code N given)"),
        ("2", "usage or configuration error, or the scan could not finish (an unreadable path, a file over --max-file-size, git failed); the report still lists what was found and an error for each problem"),
    ]

    /// A command missing here (a hidden one, such as a generator) gets a plain page.
    static func of(_ command: Invocation.Command) -> CommandHelp {
        pages[command] ?? CommandHelp(usage: ["keyshape \(command.rawValue)"], summary: "", exits: [("0", "success"), ("2", "usage error")])
    }

    static let pages: [Invocation.Command: CommandHelp] = [
        .scan: CommandHelp(usage: ["keyshape scan [PATH ...]", "keyshape scan - [--stdin-name NAME]"],
            summary: "Scan files and folders (default: .) recursively; binaries through their strings. `-` reads standard input.",
            exits: scanning),
        .history: CommandHelp(usage: ["keyshape history [REPO]"],
            summary: "Scan every commit reachable from any ref, the reflogs and stashes of a git repository (default REPO: .).",
            exits: scanning),
        .staged: CommandHelp(usage: ["keyshape staged [REPO]"],
            summary: "Scan what is staged for the next commit (the lines it adds); the pre-commit hook's job.",
            exits: scanning),
        .audit: CommandHelp(usage: ["keyshape audit [REPO] [--products PATH ...]"],
            summary: "Scan the sources, the whole history and build products: one report, one exit status.",
            exits: scanning),
        .hook: CommandHelp(usage: ["keyshape hook install [REPO]", "keyshape hook uninstall [REPO]"],
            summary: "Write a pre-commit hook that runs `keyshape staged --hook` (--pre-push: a pre-push hook scanning the pushed commits); an existing hook is chained, or with --force replaced. `uninstall` removes only a hook keyshape wrote and puts back the one it chained or replaced.",
            exits: [("0", "the hook was written or removed"), ("2", "usage error, not a git repository, or a hook keyshape did not write")]),
        .sweep: CommandHelp(usage: ["keyshape sweep --datastore DB REPO ...", "keyshape sweep --datastore DB --repos FILE"],
            summary: "Run `history --datastore DB` for each repository, --jobs repositories at a time, with a line per repository. Resumable: a repository the datastore already holds complete and unchanged (same rules, same refs) is skipped, and one changed since is scanned incrementally.",
            exits: [("0", "every repository was swept and nothing was found"), ("1", "findings were recorded (see `keyshape report`)"),
                    ("2", "usage error, or a repository could not be swept (its line says so)")]),
        .report: CommandHelp(usage: ["keyshape report --datastore DB [--format F] [--status S,...] [--rule ID] [--repo NAME]"],
            summary: "Report the findings recorded in a datastore through the scan reporters (html too). Only open findings unless --status says otherwise.",
            exits: [("0", "nothing to report"), ("1", "findings were reported (or the --exit-code N given)"),
                    ("2", "usage error, the datastore cannot be read or is not keyshape's, or the latest run of a repository recorded errors")]),
        .summarize: CommandHelp(usage: ["keyshape summarize --datastore DB"],
            summary: "Count a datastore's findings by rule, by repository and by secret (secretHash groups: one key, its places).",
            exits: [("0", "the summary was printed"), ("2", "usage error, or the datastore cannot be read or is not keyshape's")]),
        .triage: CommandHelp(usage: ["keyshape triage --datastore DB FINGERPRINT ... --status \(TriageStatus.placeholder) [--note TEXT]"],
            summary: "Record a decision for findings by fingerprint. Kept across re-scans; anything but open acts as a baseline for report and for later scans into the datastore.",
            exits: [("0", "the status was set"), ("2", "usage error, a fingerprint no recorded finding has (nothing is changed), or the datastore is not keyshape's")]),
        .importReports: CommandHelp(usage: ["keyshape import --datastore DB REPORT.jsonl ... [--repo NAME]"],
            summary: "Merge JSONL reports (keyshape --format jsonl, one per repository) into a datastore; importing one twice adds nothing.",
            exits: [("0", "every report was imported"), ("2", "usage error, a report that cannot be read or parsed (it adds nothing), or the datastore is not keyshape's")]),
        .rulesList: CommandHelp(usage: ["keyshape rules list"], summary: "List the loaded rules: id, description, tags.",
            exits: [("0", "the rules were listed"), ("2", "usage error, or a rules file could not be loaded")]),
        .rulesCheck: CommandHelp(usage: ["keyshape rules check"], summary: "Run every rule's examples and negative examples through the engine.",
            exits: [("0", "every example behaved"), ("1", "an example was missed or a negative example matched"),
                    ("2", "usage error, or a rules file could not be loaded")]),
        .version: CommandHelp(usage: ["keyshape version"], summary: "Print the version.", exits: [("0", "always")]),
        .help: CommandHelp(usage: ["keyshape help [COMMAND]", "keyshape COMMAND --help"], summary: "Show help for keyshape or one command.",
            exits: [("0", "help was shown"), ("2", "no such command")]),
    ]
}
