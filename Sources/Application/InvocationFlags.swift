import ScanCore
import Datastore
import ScanPipeline
import ScanReport

// The groups of an `Invocation`'s flags, as the flag table writes them. Each holds what the
// command line said, nothing resolved: a nil or empty value means the flag was not given,
// and `ScanSetup.prepare` (or the command) puts it together with the config file and the
// defaults. A group is the flags that are read together: `Report.deliver` reads `report`,
// rule loading `rules`, `ScanSetup` `config` and `limits`, history and audit `history`.

/// How the outcome is reported: read by `Report.deliver` (and `report`, `rules list`), the
/// streamed scan and the progress line.
public struct ReportFlags {
    public init() {}

    /// `--color`: `auto` colours text only when stdout is a terminal and NO_COLOR is unset.
    public enum ColorChoice: String, CaseIterable { case auto, always, never }

    /// `--format`, a name from the ReportFormat registry.
    public var format: ReportFormat = .text
    public var output: String?
    /// `--json-output FILE` and its kin: reports written besides the `--format` one, in the order given.
    public var extraOutputs: [(format: ReportFormat, path: String)] = []
    /// `--sarif-category NAME`; default `keyshape/COMMAND/`.
    public var sarifCategory: String?
    /// `--sort`: text and JSONL on stdout wait for the whole scan and come in path order.
    public var sort = false
    public var color: ColorChoice = .auto
    /// `--quiet`: no summary line on stderr (errors are still printed).
    public var quiet = false
    /// `--progress` (true), `--no-progress` (false); nil: when stderr is a terminal.
    public var progress: Bool?
    /// `--hook`: staged or history run by a git hook (quiet when clean, one closing line when
    /// not); also read by the commands, which then take the repository's baseline file.
    public var hookMode = false
    public var exitCode: Int32 = 1
    /// `--exit-code` was given (`report` then exits with it when it shows findings).
    public var exitCodeGiven = false
    /// `--min-confidence`: findings below it are not reported (counted in stats).
    public var minConfidence: Confidence?
    /// `--include-suppressed`: suppressed findings are kept (the scan) and shown (the reports).
    public var includeSuppressed = false
    /// `--write-baseline FILE`.
    public var writeBaseline: String?
}

/// Which rules are loaded and run: read by `RuleSources`, `RuleSelection`, `RulesIdentity`
/// and `rules check`, and passed on by `sweep` to its children.
public struct RuleFlags {
    public init() {}

    /// `--rules PATH` (repeatable), as given.
    public var paths: [String] = []
    /// `--no-builtin-rules`.
    public var noBuiltin = false
    /// `--enable-rule ID` (only these rules) and `--disable-rule ID`, as given.
    public var enabled: [String] = []
    public var disabled: [String] = []
    /// `rules check --require-examples`.
    public var requireExamples = false
}

/// Where settings and suppressions come from: read by `ScanSetup` (and `sweep`).
public struct ConfigFlags {
    public init() {}

    /// `--config FILE`.
    public var file: String?
    /// `--no-config`: the scanned root's `.keyshape.toml` is not read (a `--config FILE` still is).
    public var noConfig = false
    /// `--ignore-inline-allow`.
    public var ignoreInlineAllow = false
    /// `--baseline FILE` (or, with `--hook`, the repository's baseline file).
    public var baseline: String?
}

/// How much is read and how: the flags of the scan's limits, resolved by `resolve(into:config:)`.
public struct LimitFlags {
    public init() {}

    public var jobs: Int?
    public var maxFileSize: Int?
    /// `--max-archive-depth N` (0: archives are scanned as plain bytes) and `--max-archive-size SIZE`.
    public var maxArchiveDepth: Int?
    public var maxArchiveSize: Int?
    public var minStringLength: Int?
    public var maxDecodeDepth: Int?
    /// `--follow`.
    public var followSymlinks = false

    /// The limits in force: a flag, else the config file's setting (for those a config file
    /// may set), else the default `options` holds. `jobs` is the caller's (it makes the options).
    func resolve(into options: inout ScanOptions, config: ConfigFile) {
        options.maxFileSize = maxFileSize ?? config.maxFileSize ?? options.maxFileSize
        options.maxArchiveDepth = maxArchiveDepth ?? options.maxArchiveDepth
        options.maxArchiveSize = maxArchiveSize ?? options.maxArchiveSize
        options.minStringLength = minStringLength ?? config.minStringLength ?? options.minStringLength
        options.maxDecodeDepth = maxDecodeDepth ?? options.maxDecodeDepth
        options.followSymlinks = followSymlinks || (config.followSymlinks ?? false)
    }
}

/// history and audit: which commits and objects (and how large a commit may be).
public struct HistoryFlags {
    public init() {}

    public var since: [String] = []
    public var ranges: [String] = []
    /// `history --all-objects`.
    public var allObjects = false
    /// `--max-commit-paths N`: history and audit fail closed at a commit listing more paths.
    public var maxCommitPaths: Int?

    /// `--since` or `--range`: a selection of commits, not the whole history.
    var selectsCommits: Bool { !since.isEmpty || !ranges.isEmpty }

    /// The history scanner's options as these flags ask; the rest at their defaults.
    var options: HistoryOptions {
        var options = HistoryOptions()
        options.since = since
        options.ranges = ranges
        options.allObjects = allObjects
        if let n = maxCommitPaths { options.maxCommitPaths = n }
        return options
    }
}

/// `hook install` and `hook uninstall`: which hook, and whether another is replaced.
public struct HookInstallFlags {
    public init() {}

    /// `--force`: replace a hook keyshape did not write instead of chaining it.
    public var force = false
    /// `--pre-push`: the pre-push hook instead of the pre-commit hook.
    public var prePush = false
}

/// The datastore's flags: the file, and what `report`, `triage`, `import` and `sweep` take.
public struct DatastoreFlags {
    public init() {}

    /// `--datastore DB`: record the run there (scan, history, audit), or read it (report, ...).
    public var path: String?
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
