import Application
import ScanCore
import ScanReport
import CommandLineFlags

/// The one table of flags: it drives parsing, `--help` and the error for an unknown flag,
/// so the three never disagree.
struct Flag {
    let name: String
    let short: Character?
    /// Placeholder for the value in help; nil for a switch.
    let value: String?
    let help: String
    let commands: Set<Invocation.Command>
    let apply: (inout Invocation, String) throws -> Void
}

/// Read by the one flag parser (`FlagParser`), as byok's and keyshape-credentials' flags are.
extension Flag: CommandLineFlag {}

enum FlagTable {
    static let scanning: Set<Invocation.Command> = [.scan, .history, .staged, .audit]
    static let reporting: Set<Invocation.Command> = scanning.union([.rulesList, .report])
    static let withRules: Set<Invocation.Command> = scanning.union([.rulesList, .rulesCheck, .sweep])

    /// One array, in help order; built from parts so the type checker reads each literal alone.
    static let flags: [Flag] = formatFlags + extraOutputFlags + datastoreFlags + otherFlags

    static let formatFlags: [Flag] = [
        // Formats come from the ReportFormat registry. `rules list` takes those that can show
        // a list of rules, and says which when given another.
        Flag(name: "--format", short: "f", value: ReportFormat.placeholder,
             help: "report format (default text; `rules list`: \(ReportFormat.ruleListFormats.map(\.name).joined(separator: "|")))",
             commands: reporting) { inv, v in
            // Only a name the registry holds is echoed: any other value is the user's text.
            guard let f = ReportFormat.named(v) else {
                let offered = inv.command == .rulesList ? ReportFormat.ruleListFormats : ReportFormat.all
                throw UsageError(message: "--format: expected \(ReportFormat.list(offered))" + (inv.command == .rulesList ? " for `rules list`" : ""))
            }
            if inv.command == .rulesList && f.renderRules == nil { throw noRuleList(f) }
            inv.report.format = f
        },
        Flag(name: "--output", short: "o", value: "FILE", help: "write the report to FILE instead of stdout", commands: reporting) { inv, v in inv.report.output = v },
    ]

    /// `rules list --format F` for a format with no shape for a list of rules (SARIF, JUnit).
    static func noRuleList(_ format: ReportFormat) -> UsageError {
        UsageError(message: "--format \(format.name) has no rule-list form; `rules list` writes \(ReportFormat.list(ReportFormat.ruleListFormats))")
    }

    /// `--json-output FILE` and one such flag for every other format but text.
    static let extraOutputFlags: [Flag] = ReportFormat.all.filter { $0.name != "text" }.map { (format: ReportFormat) -> Flag in
        Flag(name: "--\(format.name)-output", short: nil, value: "FILE",
             help: "also write a \(format.name) report to FILE, besides --format's (repeatable)", commands: scanning.union([.report])) { inv, v in
            inv.report.extraOutputs.append((format, v))
        }
    }

    static let otherFlags: [Flag] = [
        Flag(name: "--sarif-category", short: nil, value: "NAME", help: "SARIF automationDetails category (default keyshape/COMMAND/)", commands: scanning) { inv, v in
            inv.report.sarifCategory = v
        },
        Flag(name: "--sort", short: nil, value: nil, help: "scan: text and JSONL on stdout in path order at the end (default: each file's findings once it is scanned)", commands: [.scan]) { inv, _ in
            inv.report.sort = true
        },
        Flag(name: "--quiet", short: "q", value: nil, help: "no summary line on stderr (errors are still printed)", commands: scanning.union([.sweep])) { inv, _ in inv.report.quiet = true },
        Flag(name: "--color", short: nil, value: "auto|always|never", help: "colour text findings (default auto: when stdout is a terminal and NO_COLOR is unset)", commands: scanning) { inv, v in
            guard let c = ReportFlags.ColorChoice(rawValue: v) else { throw UsageError(message: "--color: expected auto, always or never") }
            inv.report.color = c
        },
        Flag(name: "--stdin-name", short: nil, value: "NAME", help: "scan -: the path standard input is reported under (default -)", commands: [.scan]) { inv, v in
            inv.stdinName = v
        },
        Flag(name: "--rules", short: nil, value: "PATH", help: "add rules from a TOML file or a folder of them (repeatable; gitleaks configs load as is)", commands: withRules) { inv, v in
            inv.rules.paths.append(v)
        },
        Flag(name: "--no-builtin-rules", short: nil, value: nil, help: "use only the rules given with --rules", commands: withRules) { inv, _ in inv.rules.noBuiltin = true },
        Flag(name: "--config", short: "c", value: "FILE", help: "settings and allowlists (default: .keyshape.toml at the scanned root)", commands: scanning) { inv, v in inv.config.file = v },
        Flag(name: "--no-config", short: nil, value: nil, help: "ignore the scanned root's .keyshape.toml, .gitleaks.toml and .gitleaksignore (a --config FILE given too is still read)", commands: scanning.union([.sweep])) { inv, _ in
            inv.config.noConfig = true
        },
        Flag(name: "--ignore-inline-allow", short: nil, value: nil, help: "report findings on keyshape:allow / gitleaks:allow lines too", commands: scanning.union([.sweep])) { inv, _ in
            inv.config.ignoreInlineAllow = true
        },
        Flag(name: "--include-suppressed", short: nil, value: nil, help: "also report what allowlists, inline markers and the baseline suppressed, marked (json, sarif)", commands: scanning) { inv, _ in
            inv.report.includeSuppressed = true
        },
        Flag(name: "--enable-rule", short: nil, value: "ID", help: "run only the rules named so (repeatable)", commands: withRules) { inv, v in
            inv.rules.enabled.append(v)
        },
        Flag(name: "--disable-rule", short: nil, value: "ID", help: "do not run this rule (repeatable)", commands: withRules) { inv, v in
            inv.rules.disabled.append(v)
        },
        Flag(name: "--baseline", short: nil, value: "FILE", help: "do not report findings a baseline FILE lists (keyshape's, 0.2's, or a gitleaks JSON report)", commands: scanning) { inv, v in inv.config.baseline = v },
        Flag(name: "--write-baseline", short: nil, value: "FILE", help: "write the findings to FILE as a baseline: fingerprints and keyed value checks, never values", commands: scanning) { inv, v in inv.report.writeBaseline = v },
        Flag(name: "--exit-code", short: nil, value: "N", help: "exit status when findings are reported (default 1; report: 0 unless this is given)", commands: scanning.union([.report])) { inv, v in
            guard let n = Int32(v), n >= 0, n <= 255 else { throw UsageError(message: "--exit-code: expected a number from 0 to 255") }
            inv.report.exitCode = n
            inv.report.exitCodeGiven = true
        },
        Flag(name: "--min-confidence", short: nil, value: "LEVEL", help: "report only findings of this confidence or higher: low, medium or high (default low)", commands: scanning) { inv, v in
            guard let c = Confidence(rawValue: v) else { throw UsageError(message: "--min-confidence: expected low, medium or high") }
            inv.report.minConfidence = c
        },
        Flag(name: "--jobs", short: "j", value: "N", help: "worker threads (default: all cores)", commands: scanning.union([.sweep])) { inv, v in
            guard let n = Int(v), n >= 1, n <= 1024 else { throw UsageError(message: "--jobs: expected a number from 1 to 1024") }
            inv.limits.jobs = n
        },
        Flag(name: "--progress", short: nil, value: nil, help: "show progress on stderr (default when stderr is a terminal)", commands: scanning) { inv, _ in inv.report.progress = true },
        Flag(name: "--no-progress", short: nil, value: nil, help: "never show progress", commands: scanning) { inv, _ in inv.report.progress = false },
        Flag(name: "--max-file-size", short: nil, value: "SIZE", help: "larger files are reported, not scanned (default: no limit, large files are streamed; K, M, G suffixes)", commands: scanning) { inv, v in
            guard let n = parseSize(v) else { throw UsageError(message: "--max-file-size: expected a size such as 100MiB, 2G or 4096") }
            inv.limits.maxFileSize = n
        },
        Flag(name: "--max-archive-depth", short: nil, value: "N", help: "open archives (zip and its kin, tar, ar) nested up to N deep; 0: do not open archives (default 4)", commands: scanning) { inv, v in
            guard let n = Int(v), n >= 0, n <= 64 else { throw UsageError(message: "--max-archive-depth: expected a number from 0 to 64") }
            inv.limits.maxArchiveDepth = n
        },
        Flag(name: "--max-archive-size", short: nil, value: "SIZE", help: "what one archive may expand to, every nesting level counted (default 1GiB; K, M, G suffixes)", commands: scanning) { inv, v in
            guard let n = parseSize(v), n > 0 else { throw UsageError(message: "--max-archive-size: expected a size such as 1GiB, 512M or 4096") }
            inv.limits.maxArchiveSize = n
        },
        Flag(name: "--follow", short: "L", value: nil, help: "follow symbolic links inside folders (loops are detected)", commands: [.scan]) { inv, _ in inv.limits.followSymlinks = true },
        Flag(name: "--min-string-length", short: nil, value: "N", help: "shortest printable run taken from binary files (default 8)", commands: [.scan, .history, .staged]) { inv, v in
            guard let n = Int(v), n >= 4, n <= 1024 else { throw UsageError(message: "--min-string-length: expected a number from 4 to 1024") }
            inv.limits.minStringLength = n
        },
        Flag(name: "--max-decode-depth", short: nil, value: "N", help: "decode base64, hex, percent, escapes and data: URIs nested N deep (default 2; 0: off)", commands: scanning) { inv, v in
            guard let n = Int(v), n >= 0, n <= 16 else { throw UsageError(message: "--max-decode-depth: expected a number from 0 to 16") }
            inv.limits.maxDecodeDepth = n
        },
        Flag(name: "--all-objects", short: nil, value: nil, help: "history: also every blob no commit reaches (dangling, dropped stashes), as kind `blob`", commands: [.history]) { inv, _ in
            inv.history.allObjects = true
        },
        Flag(name: "--max-commit-paths", short: nil, value: "N", help: "history, audit: a commit that changes more than N paths (a \"git bomb\" repeats one tree to list millions) stops the history scan with an error (default 250000)", commands: [.history, .audit]) { inv, v in
            guard let n = Int(v), n > 0 else { throw UsageError(message: "--max-commit-paths: expected a positive number") }
            inv.history.maxCommitPaths = n
        },
        Flag(name: "--since", short: nil, value: "REV", help: "history, audit: only commits not reachable from REV (repeatable; empty or all zeros: the commits not pushed yet); audit then scans no working tree of its own", commands: [.history, .audit]) { inv, v in
            inv.history.since.append(v)
        },
        Flag(name: "--range", short: nil, value: "A..B", help: "history, audit: only commits reachable from B and not from A (repeatable; A empty or all zeros: the commits not pushed yet); audit then scans no working tree of its own", commands: [.history, .audit]) { inv, v in
            inv.history.ranges.append(v)
        },
        Flag(name: "--force", short: nil, value: nil, help: "hook install: replace an existing hook that keyshape did not write (kept as HOOK.keyshape-backup) instead of chaining it", commands: [.hook]) { inv, _ in
            inv.hookInstall.force = true
        },
        Flag(name: "--pre-push", short: nil, value: nil, help: "hook install, uninstall: the pre-push hook (scanning the pushed commits) instead of the pre-commit hook", commands: [.hook]) { inv, _ in
            inv.hookInstall.prePush = true
        },
        Flag(name: "--hook", short: nil, value: nil, help: "run as a git hook: print nothing when clean, end a blocked commit or push with one line saying why and what to do, read REPO/.keyshape-baseline.json as --baseline when there is one (implies --no-progress)", commands: [.staged, .history]) { inv, _ in
            inv.report.hookMode = true
            inv.report.progress = false
        },
        Flag(name: "--require-examples", short: nil, value: nil, help: "fail rules with fewer than two examples or negative examples", commands: [.rulesCheck]) { inv, _ in inv.rules.requireExamples = true },
        Flag(name: "--products", short: nil, value: "PATH", help: "audit: also scan these build products (an app bundle, .build/release, ...; repeatable)", commands: [.audit]) { inv, v in
            inv.products.append(v)
        },
        Flag(name: "--help", short: "h", value: nil, help: "show help", commands: Set(Invocation.Command.allCases)) { inv, _ in inv.helpRequested = true },
    ]

    static func parseSize(_ text: String) -> Int? { ByteSize.parse(text) }
}
