import ScanCore
import Datastore
import ScanPipeline
import ScanReport

/// Everything the command line said, after parsing.
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

    /// `--color`: `auto` colours text only when stdout is a terminal and NO_COLOR is unset.
    public enum ColorChoice: String, CaseIterable { case auto, always, never }

    public var command: Command = .help
    public var positionals: [String] = []
    /// `--format`, a name from the ReportFormat registry.
    public var format: ReportFormat = .text
    public var output: String?
    /// `--json-output FILE` and its kin: reports written besides the `--format` one, in the order given.
    public var extraOutputs: [(format: ReportFormat, path: String)] = []
    /// `--sarif-category NAME`; default `keyshape/COMMAND/`.
    public var sarifCategory: String?
    /// `--quiet`: no summary line on stderr (errors are still printed).
    public var quiet = false
    /// `--sort`: text and JSONL on stdout wait for the whole scan and come in path order.
    public var sort = false
    public var color: ColorChoice = .auto
    /// `--stdin-name NAME`: the path `scan -` reports standard input under.
    public var stdinName = "-"
    public var rulePaths: [String] = []
    public var noBuiltinRules = false
    public var config: String?
    /// `--no-config`: the scanned root's `.keyshape.toml` is not read (a `--config FILE` still is).
    public var noConfig = false
    public var ignoreInlineAllow = false
    public var includeSuppressed = false
    /// `--enable-rule ID` (only these rules) and `--disable-rule ID`, as given.
    public var enabledRules: [String] = []
    public var disabledRules: [String] = []
    public var baseline: String?
    public var writeBaseline: String?
    public var exitCode: Int32 = 1
    /// `--exit-code` was given (`report` then exits with it when it shows findings).
    public var exitCodeGiven = false
    /// `--min-confidence`: findings below it are not reported (counted in stats).
    public var minConfidence: Confidence?
    public var jobs: Int?
    public var progress: Bool?
    public var maxFileSize: Int?
    /// `--max-archive-depth N` (0: archives are scanned as plain bytes) and `--max-archive-size SIZE`.
    public var maxArchiveDepth: Int?
    public var maxArchiveSize: Int?
    public var followSymlinks = false
    public var minStringLength: Int?
    public var maxDecodeDepth: Int?
    public var requireExamples = false
    public var helpRequested = false
    // history, staged, hook
    public var allObjects = false
    /// `--max-commit-paths N`: history and audit fail closed at a commit listing more paths.
    public var maxCommitPaths: Int?
    public var since: [String] = []
    public var ranges: [String] = []
    public var force = false
    public var prePush = false
    /// `--hook`: staged or history run by a git hook (quiet when clean, one closing line when not).
    public var hookMode = false
    /// `audit --products PATH`: build products scanned with the sources and history.
    public var products: [String] = []
    // The datastore.
    /// `--datastore DB`: record the run there (scan, history, audit), or read it (report, ...).
    public var datastore: String?
    /// `--status S,...` (report: which to show; triage: the one to set).
    public var statuses: [TriageStatus] = []
    /// `report --rule ID` (repeatable).
    public var filterRules: [String] = []
    /// `report --repo R` (repeatable); `import --repo NAME`: the repository the reports belong to.
    public var filterRepos: [String] = []
    /// `triage --note TEXT`.
    public var note: String?
    /// `sweep --repos FILE`: one repository path a line.
    public var reposFile: String?
}
