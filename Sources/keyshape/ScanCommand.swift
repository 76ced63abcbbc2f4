import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import StandardStreams

/// `keyshape scan [PATH ...]`.
enum ScanCommand {
    static func run(_ inv: Invocation) throws -> Int32 {
        let roots = inv.positionals.isEmpty ? ["."] : inv.positionals
        let readsStdin = roots.contains("-")
        if readsStdin && roots.count > 1 {
            throw UsageError(message: "`scan -` reads standard input alone; scan other paths in a separate run")
        }
        let (ruleSet, options) = try prepare(inv, roots: readsStdin ? ["."] : roots)
        let scanner = Scanner(ruleSet: ruleSet, options: options)
        let progress = (inv.progress ?? Terminal.stderrIsTerminal) ? ProgressLine(scanner.progress) : nil
        // Text and JSONL on stdout are written as each file is done (the first line of a long
        // scan arrives at once); --sort, or any other report, waits for the sorted whole.
        let streamed = inv.format.streams && inv.output == nil && !inv.sort
        if streamed {
            var streamOptions = ReportOptions()
            streamOptions.color = Report.colors(inv)
            let pieces = streamOptions, format = inv.format
            // Once stdout takes no more (`scan . | head -1`), the rest of the tree would be
            // scanned for nobody: stop, as ripgrep does, unless a file still needs the whole
            // result (`--write-baseline`, `--sarif-output` and the like).
            let stopsWithStdout = inv.writeBaseline == nil && inv.extraOutputs.isEmpty
            let minimum = inv.minConfidence ?? .low
            scanner.onFileFindings = { [weak scanner] findings in
                let text = format.render(ScanResult(findings: findings.filter { $0.confidence >= minimum }), pieces)
                if let progress { progress.clearedWhile { Terminal.out(text) } } else { Terminal.out(text) }
                if stopsWithStdout && StandardStream.output.failure != nil { scanner?.stop() }
            }
        }
        // --datastore: findings are recorded as they are reported, batch by batch.
        if let recorder = DatastoreRecorder.current { scanner.sink = recorder.streaming(into: scanner.sink) }
        progress?.start()
        let (result, notes): (ScanResult, [ScanIssue])
        if readsStdin {
            let input = StandardInput(name: inv.stdinName, maxSize: min(options.maxFileSize, StandardInput.defaultLimit), closed: StandardStream.inputWasClosed)
            (result, notes) = scanner.scan(input.listing)
        } else {
            // Several arguments keep their paths as given, so the same file name under two
            // folders prints two different lines (and gets two fingerprints).
            (result, notes) = scanner.scan(paths: roots, keepRootInPaths: roots.count > 1)
        }
        progress?.stop()
        for note in notes { Terminal.err("keyshape: note: \(note)\n") }
        let stopped = scanner.stopped ? StoppedScan(scanned: result.stats.files, listed: scanner.progress.filesTotal.load(ordering: .relaxed)) : nil
        return try Report.deliver(result, inv, options, roots: .scan(roots), streamed: streamed, stopped: stopped)
    }

    /// Rules, config and options as every scanning command (scan, history, staged, audit)
    /// takes them: flags first, then the config file found for `roots`, then defaults.
    static func prepare(_ inv: Invocation, roots: [String]) throws -> (RuleSet, ScanOptions) {
        var rules = try RuleSources.load(inv)
        let config = try ConfigFile.load(explicit: inv.config, roots: roots, noConfig: inv.noConfig,
                                         gitleaksConfigGiven: rules.gitleaksConfig != nil,
                                         loadedRuleIds: Set(RuleSet.ruleIds(rules.files)))
        if var extra = config.rules {
            // The scanned tree's rules run where no trusted rule matched (`Rule.fromRepository`);
            // a `--config FILE`'s are the user's.
            for i in extra.rules.indices { extra.rules[i].fromRepository = config.origin == .repository }
            rules.files.append(extra)
        }
        for w in rules.warnings + config.warnings { Terminal.err(Terminal.warning(w)) }
        let selection = try RuleSelection(inv, loaded: RuleSet.ruleIds(rules.files))
        let (ruleSet, replaced) = RuleSet.combining(rules.files, extraAllowlists: config.allowlists, keeping: selection.keeps)
        for note in replaced { Terminal.err(Terminal.warning(note)) }
        if ruleSet.rules.isEmpty { throw UsageError(message: "--disable-rule left no rule to run") }
        var options = ScanOptions(jobs: inv.jobs ?? ScanOptions.coreCount)
        options.ignoreInlineAllow = inv.ignoreInlineAllow || !SettingPolicy.permits(SettingPolicy.inlineMarkers, from: .repository)
        options.keepSuppressed = inv.includeSuppressed
        options.configFiles = (rules.gitleaksConfig.map { [$0] } ?? []) + (config.path.map { [$0] } ?? [])
        options.ignoredConfigFiles = config.ignored.map { [$0] } ?? []
        options.maxFileSize = inv.maxFileSize ?? config.maxFileSize ?? options.maxFileSize
        options.maxArchiveDepth = inv.maxArchiveDepth ?? options.maxArchiveDepth
        options.maxArchiveSize = inv.maxArchiveSize ?? options.maxArchiveSize
        options.minStringLength = inv.minStringLength ?? config.minStringLength ?? options.minStringLength
        options.maxDecodeDepth = inv.maxDecodeDepth ?? options.maxDecodeDepth
        options.followSymlinks = inv.followSymlinks || (config.followSymlinks ?? false)
        options.hashKey = ProcessInfo.processInfo.environment["KEYSHAPE_HASH_KEY"] ?? config.hashKey ?? ""
        if let baseline = inv.baseline {
            let contents = try readBaseline(baseline)
            options.baseline = contents.fingerprints
            options.baselineChecks = contents.checks
            options.legacyBaseline = contents.legacyFingerprints
            options.baselineKey = contents.key
            options.baselineEntries = roots.count == 1 ? contents.entries.map { $0.relative(to: roots[0]) } : contents.entries
        }
        // The baseline this run writes keeps the key of the one it replaces (its checks stay
        // valid), else takes the read baseline's, else a new one.
        if let target = inv.writeBaseline, options.baselineKey == nil {
            options.baselineKey = FileManager.default.contents(atPath: target).flatMap { try? BaselineFile.load($0, path: target).key }
                ?? SecretKeying.randomKey()
        }
        try GitleaksIgnore.read(roots: roots, noConfig: inv.noConfig, into: &options)
        try DatastoreRecorder.start(inv, roots: roots, options: &options)
        return (ruleSet, options)
    }

    static func readBaseline(_ path: String) throws -> BaselineFile.Contents {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "\(path): cannot read baseline file")
        }
        do { return try BaselineFile.load(data, path: path) } catch let e as BaselineFile.ReadError {
            throw UsageError(message: e.message)
        }
    }
}

/// Writes the reports, the baseline and the summary, and picks the exit status.
enum Report {
    /// `--min-confidence`: findings below it are left out of every report, the baseline and
    /// the exit status, and counted (`stats.belowMinConfidence`), so a gate that asks for
    /// high confidence still shows how much it chose not to see.
    static func keeping(_ result: ScanResult, minConfidence: Confidence?) -> ScanResult {
        guard let minimum = minConfidence, minimum > .low else { return result }
        var kept = result
        kept.findings = result.findings.filter { $0.confidence >= minimum }
        kept.suppressed = result.suppressed.filter { $0.finding.confidence >= minimum }
        kept.stats.belowMinConfidence += result.findings.count - kept.findings.count
        return kept
    }

    /// - Parameters:
    ///   - options: the run's options, for the config files the summary names.
    ///   - roots: what report paths are relative to, for SARIF's artifact URIs.
    ///   - streamed: the `--format` report already went to stdout as findings were made.
    ///   - stopped: the scan stopped early because stdout took no more of the report.
    static func deliver(_ result: ScanResult, _ inv: Invocation, _ options: ScanOptions, roots: ArtifactRoots,
                        streamed: Bool = false, stopped: StoppedScan? = nil) throws -> Int32 {
        // Findings under --min-confidence leave every report, the datastore included.
        var result = keeping(result, minConfidence: inv.minConfidence), recorded = true
        // --datastore: recorded before any report is written; a failure to record is exit 2.
        if let recorder = DatastoreRecorder.current { (result, recorded) = recorder.finish(result) }
        var reportOptions = ReportOptions()
        reportOptions.includeSuppressed = inv.includeSuppressed
        reportOptions.sarif = SARIFSettings(category: category(inv), artifactPath: { roots.artifactPath($0) }, sourceRoot: roots.sourceRoot)
        reportOptions.scanTimes = scanTimes(seconds: result.stats.seconds)
        var primary = reportOptions
        primary.color = colors(inv)
        var status: Int32 = result.issues.isEmpty && recorded ? (result.findings.isEmpty ? 0 : inv.exitCode) : 2
        // A stopped scan wrote findings (only a write can fail), so its status is already the
        // findings' one; with `--exit-code 0` it would be 0 for a tree not wholly scanned.
        if stopped != nil && status == 0 { status = 2 }
        if let output = inv.output {
            if !write(inv.format.render(result, primary), to: output) { status = 2 }
        } else if !streamed {
            // A write failure here is settled by Terminal.finish once the files below are
            // written too: a closed pipe keeps this status, any other failure makes it 2.
            Terminal.out(inv.format.render(result, primary))
        }
        // Written whatever became of stdout: CI uploads these even when the log broke.
        for extra in inv.extraOutputs where !write(extra.format.render(result, reportOptions), to: extra.path) { status = 2 }
        if let baseline = inv.writeBaseline, !write(BaselineFile.write(result.findings, key: options.baselineKey ?? SecretKeying.randomKey()), to: baseline) { status = 2 }
        // Errors go to stderr unless the report on stdout lists them itself.
        if !inv.format.carriesErrors || inv.output != nil {
            for issue in result.issues { Terminal.err("keyshape: error: \(issue)\n") }
        }
        guard !inv.quiet else { return status }
        // Which settings were in force, so a CI log shows when the scanned tree's own config
        // (which can allowlist anything) was read. A hook (`--hook`) that lets the commit
        // through says nothing.
        var summary = TextReporter.summary(result)
        for path in options.configFiles { summary += "; config: " + path }
        for path in options.ignoredConfigFiles { summary += "; config not read (--no-config): " + path }
        if let stopped { summary += "; stopped after \(stopped.scanned) of \(stopped.listed) files: standard output took no more" }
        if !(inv.hookMode && status == 0) { Terminal.err(summary + "\n") }
        return status
    }

    /// Now, and `seconds` before, as UTC `yyyy-mm-ddThh:mm:ss` (GitLab's report format).
    static func scanTimes(seconds: Double, now: Date = Date()) -> (start: String, end: String) {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let elapsed = seconds.isFinite && seconds > 0 ? seconds : 0
        return (format.string(from: now.addingTimeInterval(-elapsed)), format.string(from: now))
    }

    /// `--sarif-category NAME`, with the trailing `/` code scanning's category ids carry;
    /// default `keyshape/COMMAND/`.
    static func category(_ inv: Invocation) -> String {
        guard let name = inv.sarifCategory, !name.isEmpty else { return "keyshape/\(inv.command.rawValue)/" }
        return name.hasSuffix("/") ? name : name + "/"
    }

    /// `--color`: `always` and `never` as said; `auto` colours a terminal on stdout unless
    /// NO_COLOR is set to anything non-empty (no-color.org), never a file.
    static func colors(_ inv: Invocation) -> Bool {
        switch inv.color {
        case .always: return true
        case .never: return false
        case .auto:
            if let v = ProcessInfo.processInfo.environment["NO_COLOR"], !v.isEmpty { return false }
            return inv.output == nil && StandardStream.output.isTerminal
        }
    }

    static func write(_ text: String, to path: String) -> Bool {
        guard let failure = OutputFile.write(text, to: path) else { return true }
        Terminal.err("keyshape: error: \(path): cannot write (\(FileErrors.describe(failure)))\n")
        return false
    }
}

/// How far a scan got before it stopped because stdout took no more of its report.
struct StoppedScan {
    var scanned: Int
    var listed: Int
}
