import ScanCore
import Datastore
import ScanPipeline
import ScanReport

/// Everything the command line said, after parsing.
struct Invocation {
    enum Command: String, CaseIterable {
        case scan, history, staged, hook, audit, rulesList = "rules list", rulesCheck = "rules check", version, help
        // The auditor's datastore.
        case report, summarize, triage, importReports = "import", sweep
        // Not in the usage text: what scripts/package runs to ship completions and the man page.
        case completions, man
    }

    /// `--color`: `auto` colours text only when stdout is a terminal and NO_COLOR is unset.
    enum ColorChoice: String, CaseIterable { case auto, always, never }

    var command: Command = .help
    var positionals: [String] = []
    /// `--format`, a name from the ReportFormat registry.
    var format: ReportFormat = .text
    var output: String?
    /// `--json-output FILE` and its kin: reports written besides the `--format` one, in the order given.
    var extraOutputs: [(format: ReportFormat, path: String)] = []
    /// `--sarif-category NAME`; default `keyshape/COMMAND/`.
    var sarifCategory: String?
    /// `--quiet`: no summary line on stderr (errors are still printed).
    var quiet = false
    /// `--sort`: text and JSONL on stdout wait for the whole scan and come in path order.
    var sort = false
    var color: ColorChoice = .auto
    /// `--stdin-name NAME`: the path `scan -` reports standard input under.
    var stdinName = "-"
    var rulePaths: [String] = []
    var noBuiltinRules = false
    var config: String?
    /// `--no-config`: the scanned root's `.keyshape.toml` is not read (a `--config FILE` still is).
    var noConfig = false
    var ignoreInlineAllow = false
    var includeSuppressed = false
    /// `--enable-rule ID` (only these rules) and `--disable-rule ID`, as given.
    var enabledRules: [String] = []
    var disabledRules: [String] = []
    var baseline: String?
    var writeBaseline: String?
    var exitCode: Int32 = 1
    /// `--exit-code` was given (`report` then exits with it when it shows findings).
    var exitCodeGiven = false
    /// `--min-confidence`: findings below it are not reported (counted in stats).
    var minConfidence: Confidence?
    var jobs: Int?
    var progress: Bool?
    var maxFileSize: Int?
    /// `--max-archive-depth N` (0: archives are scanned as plain bytes) and `--max-archive-size SIZE`.
    var maxArchiveDepth: Int?
    var maxArchiveSize: Int?
    var followSymlinks = false
    var minStringLength: Int?
    var maxDecodeDepth: Int?
    var requireExamples = false
    var helpRequested = false
    /// `keyshape help rules` and `keyshape rules --help`: both rules subcommands.
    var helpForRules = false
    // history, staged, hook
    var allObjects = false
    /// `--max-commit-paths N`: history and audit fail closed at a commit listing more paths.
    var maxCommitPaths: Int?
    var since: [String] = []
    var ranges: [String] = []
    var force = false
    var prePush = false
    /// `--hook`: staged or history run by a git hook (quiet when clean, one closing line when not).
    var hookMode = false
    /// `audit --products PATH`: build products scanned with the sources and history.
    var products: [String] = []
    // The datastore.
    /// `--datastore DB`: record the run there (scan, history, audit), or read it (report, ...).
    var datastore: String?
    /// `--status S,...` (report: which to show; triage: the one to set).
    var statuses: [TriageStatus] = []
    /// `report --rule ID` (repeatable).
    var filterRules: [String] = []
    /// `report --repo R` (repeatable); `import --repo NAME`: the repository the reports belong to.
    var filterRepos: [String] = []
    /// `triage --note TEXT`.
    var note: String?
    /// `sweep --repos FILE`: one repository path a line.
    var reposFile: String?
}

/// A command line that cannot be run: printed with a hint, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
