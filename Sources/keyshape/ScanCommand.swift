import Foundation
import ScanCore
import ScanEngine
import ScanReport
import ScanRules
import StandardStreams

/// `keyshape scan [PATH ...]`.
enum ScanCommand {
    static func run(_ inv: Invocation) throws -> Int32 {
        let roots = inv.positionals.isEmpty ? ["."] : inv.positionals
        let (ruleSet, options) = try prepare(inv, roots: roots)
        let scanner = Scanner(ruleSet: ruleSet, options: options)
        let progress = (inv.progress ?? Terminal.stderrIsTerminal) ? ProgressLine(scanner.progress) : nil
        progress?.start()
        let (result, notes) = scanner.scan(paths: roots)
        progress?.stop()
        for note in notes { Terminal.err("keyshape: note: \(note)\n") }
        return try Report.deliver(result, inv, options)
    }

    /// Rules, config and options as every scanning command (scan, history, staged, audit)
    /// takes them: flags first, then the config file found for `roots`, then defaults.
    static func prepare(_ inv: Invocation, roots: [String]) throws -> (RuleSet, ScanOptions) {
        let rules = try RuleSources.load(inv)
        let config = try ConfigFile.load(explicit: inv.config, roots: roots, noConfig: inv.noConfig)
        for w in rules.warnings + config.warnings { Terminal.err("keyshape: warning: \(w)\n") }
        let selection = try RuleSelection(inv, loaded: RuleSet.ruleIds(rules.files))
        let (ruleSet, _) = RuleSet.combining(rules.files, extraAllowlists: config.allowlists, keeping: selection.keeps)
        if ruleSet.rules.isEmpty { throw UsageError(message: "--disable-rule left no rule to run") }
        var options = ScanOptions(jobs: inv.jobs ?? ScanOptions.coreCount)
        options.ignoreInlineAllow = inv.ignoreInlineAllow
        options.keepSuppressed = inv.includeSuppressed
        options.configFiles = config.path.map { [$0] } ?? []
        options.ignoredConfigFiles = config.ignored.map { [$0] } ?? []
        options.maxFileSize = inv.maxFileSize ?? config.maxFileSize ?? options.maxFileSize
        options.minStringLength = inv.minStringLength ?? config.minStringLength ?? options.minStringLength
        options.followSymlinks = inv.followSymlinks || (config.followSymlinks ?? false)
        options.hashKey = ProcessInfo.processInfo.environment["KEYSHAPE_HASH_KEY"] ?? config.hashKey ?? ""
        if let baseline = inv.baseline { options.baseline = try readBaseline(baseline) }
        return (ruleSet, options)
    }

    static func readBaseline(_ path: String) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "\(path): cannot read baseline file")
        }
        do { return try BaselineFile.read(data, path: path) } catch let e as BaselineFile.ReadError {
            throw UsageError(message: e.message)
        }
    }
}

/// Writes the report, the baseline and the summary, and picks the exit status.
enum Report {
    /// - Parameter options: the run's options, for the config files the summary names.
    static func deliver(_ result: ScanResult, _ inv: Invocation, _ options: ScanOptions) throws -> Int32 {
        let body: String
        switch inv.format {
        case .text: body = TextReporter.report(result)
        case .json: body = JSONReporter.report(result)
        case .jsonl: body = JSONReporter.reportLines(result)
        case .sarif: body = SARIFReporter.report(result, includeSuppressed: inv.includeSuppressed)
        }
        var status: Int32 = result.issues.isEmpty ? (result.findings.isEmpty ? 0 : inv.exitCode) : 2
        if let output = inv.output {
            if !write(body, to: output) { status = 2 }
        } else {
            // A write failure here is settled by Terminal.finish once the baseline below is
            // written too: a closed pipe keeps this status, any other failure makes it 2.
            Terminal.out(body)
        }
        if let baseline = inv.writeBaseline, !write(BaselineFile.write(result.findings), to: baseline) { status = 2 }
        if inv.format == .text || inv.output != nil {
            for issue in result.issues { Terminal.err("keyshape: error: \(issue)\n") }
        }
        // Which settings were in force, so a CI log shows when the scanned tree's own config
        // (which can allowlist anything) was read. A hook (`--hook`) that lets the commit
        // through says nothing.
        var summary = TextReporter.summary(result)
        for path in options.configFiles { summary += "; config: " + path }
        for path in options.ignoredConfigFiles { summary += "; config not read (--no-config): " + path }
        if !(inv.hookMode && status == 0) { Terminal.err(summary + "\n") }
        return status
    }

    static func write(_ text: String, to path: String) -> Bool {
        guard let failure = OutputFile.write(text, to: path) else { return true }
        Terminal.err("keyshape: error: \(path): cannot write (\(FileErrors.describe(failure)))\n")
        return false
    }
}
