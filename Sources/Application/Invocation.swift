/// Everything the command line said, after parsing: the command, its arguments, and its
/// flags in groups (`InvocationFlags.swift`), each group the flags that the same handlers
/// read together. A handler that needs one or two groups is given those, not the whole
/// invocation; the scanning commands, which read nearly all of them, take the invocation.
public struct Invocation {
    public init() {}

    public enum Command: String, CaseIterable {
        case scan, history, staged, hook, audit, rulesList = "rules list", rulesCheck = "rules check", version, help
        // The auditor's datastore.
        case report, summarize, triage, importReports = "import", sweep
        // Not in the usage text: what scripts/package runs to ship completions and the man page.
        case completions, man

        /// The commands `--datastore DB` records a run of (the others read or manage one).
        public static let recording: Set<Command> = [.scan, .history, .audit]
    }

    public var command: Command = .help
    /// What follows the command that is not a flag: paths, a repository, fingerprints, a
    /// shell's name, `install`...
    public var positionals: [String] = []
    /// `--help` after the command.
    public var helpRequested = false
    /// `--stdin-name NAME`: the path `scan -` reports standard input under.
    public var stdinName = "-"
    /// `audit --products PATH`: build products scanned with the sources and history.
    public var products: [String] = []

    /// How the outcome is reported: formats, files, exit status, the summary and progress.
    public var report = ReportFlags()
    /// Which rules run: rule files, the builtin pack, `--enable-rule`, `--disable-rule`.
    public var rules = RuleFlags()
    /// Where settings and suppressions come from: the config file, inline markers, a baseline.
    public var config = ConfigFlags()
    /// How much is read and how: threads, sizes, depths, symbolic links.
    public var limits = LimitFlags()
    /// history and audit: which commits.
    public var history = HistoryFlags()
    /// `hook install` and `hook uninstall`.
    public var hookInstall = HookInstallFlags()
    /// The datastore to record into or read, and what `report`, `triage`, `import` and
    /// `sweep` do with it.
    public var datastore = DatastoreFlags()
}
