import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import StandardStreams

/// Writes the reports, the baseline and the summary, and picks the exit status.
public enum Report {
    /// `--min-confidence`: findings below it are left out of every report, the baseline and
    /// the exit status, and counted (`stats.belowMinConfidence`), so a gate that asks for
    /// high confidence still shows how much it chose not to see.
    public static func keeping(_ result: ScanResult, minConfidence: Confidence?) -> ScanResult {
        guard let minimum = minConfidence, minimum > .low else { return result }
        var kept = result
        kept.findings = result.findings.filter { $0.confidence >= minimum }
        kept.suppressed = result.suppressed.filter { $0.finding.confidence >= minimum }
        kept.stats.belowMinConfidence += result.findings.count - kept.findings.count
        return kept
    }

    /// - Parameters:
    ///   - report: what the command line asked of the report (`ReportFlags`).
    ///   - command: the command run, which names SARIF's default category.
    ///   - options: the run's options, for the config files the summary names.
    ///   - roots: what report paths are relative to, for SARIF's artifact URIs.
    ///   - streamed: the `--format` report already went to stdout as findings were made.
    ///   - stopped: the scan stopped early because stdout took no more of the report.
    ///   - context: where the report and the summary go, and the run's datastore recorder.
    public static func deliver(_ result: ScanResult, _ report: ReportFlags, command: Invocation.Command, _ options: ScanOptions,
                               roots: ArtifactRoots, context: RunContext, streamed: Bool = false, stopped: StoppedScan? = nil) throws -> Int32 {
        // Findings under --min-confidence leave every report, the datastore included.
        var result = keeping(result, minConfidence: report.minConfidence), recorded = true
        // --datastore: recorded before any report is written; a failure to record is exit 2.
        if let recorder = context.recorder { (result, recorded) = recorder.finish(result, context: context) }
        var reportOptions = ReportOptions()
        reportOptions.includeSuppressed = report.includeSuppressed
        reportOptions.sarif = SARIFSettings(category: category(report, command: command), artifactPath: { roots.artifactPath($0) }, sourceRoot: roots.sourceRoot)
        reportOptions.scanTimes = scanTimes(seconds: result.stats.seconds)
        var primary = reportOptions
        primary.color = colors(report, context)
        var status: Int32 = result.issues.isEmpty && recorded ? (result.findings.isEmpty ? 0 : report.exitCode) : 2
        // A stopped scan wrote findings (only a write can fail), so its status is already the
        // findings' one; with `--exit-code 0` it would be 0 for a tree not wholly scanned.
        if stopped != nil && status == 0 { status = 2 }
        if let output = report.output {
            if !write(report.format.render(result, primary), to: output, context) { status = 2 }
        } else if !streamed {
            // A write failure here is settled by the executable once the files below are
            // written too: a closed pipe keeps this status, any other failure makes it 2.
            context.out(report.format.render(result, primary))
        }
        // Written whatever became of stdout: CI uploads these even when the log broke.
        for extra in report.extraOutputs where !write(extra.format.render(result, reportOptions), to: extra.path, context) { status = 2 }
        if let baseline = report.writeBaseline, !write(BaselineFile.write(result.findings, key: options.baselineKey ?? SecretKeying.randomKey()), to: baseline, context) { status = 2 }
        // Errors go to stderr unless the report on stdout lists them itself.
        if !report.format.carriesErrors || report.output != nil {
            for issue in result.issues { context.err("keyshape: error: \(issue)\n") }
        }
        guard !report.quiet else { return status }
        // Which settings were in force, so a CI log shows when the scanned tree's own config
        // (which can allowlist anything) was read. A hook (`--hook`) that lets the commit
        // through says nothing.
        var summary = TextReporter.summary(result)
        for path in options.configFiles { summary += "; config: " + path }
        for path in options.ignoredConfigFiles { summary += "; config not read (--no-config): " + path }
        if let stopped { summary += "; stopped after \(stopped.scanned) of \(stopped.listed) files: standard output took no more" }
        if !(report.hookMode && status == 0) { context.err(summary + "\n") }
        return status
    }

    /// Now, and `seconds` before, as UTC `yyyy-mm-ddThh:mm:ss` (GitLab's report format).
    public static func scanTimes(seconds: Double, now: Date = Date()) -> (start: String, end: String) {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let elapsed = seconds.isFinite && seconds > 0 ? seconds : 0
        return (format.string(from: now.addingTimeInterval(-elapsed)), format.string(from: now))
    }

    /// `--sarif-category NAME`, with the trailing `/` code scanning's category ids carry;
    /// default `keyshape/COMMAND/`.
    public static func category(_ report: ReportFlags, command: Invocation.Command) -> String {
        guard let name = report.sarifCategory, !name.isEmpty else { return "keyshape/\(command.rawValue)/" }
        return name.hasSuffix("/") ? name : name + "/"
    }

    /// `--color`: `always` and `never` as said; `auto` colours a terminal on stdout unless
    /// NO_COLOR is set to anything non-empty (no-color.org), never a file.
    public static func colors(_ report: ReportFlags, _ context: RunContext) -> Bool {
        switch report.color {
        case .always: return true
        case .never: return false
        case .auto:
            if let v = ProcessInfo.processInfo.environment["NO_COLOR"], !v.isEmpty { return false }
            return report.output == nil && context.stdoutIsTerminal
        }
    }

    public static func write(_ text: String, to path: String, _ context: RunContext) -> Bool {
        guard let failure = OutputFile.write(text, to: path) else { return true }
        context.err("keyshape: error: \(path): cannot write (\(FileErrors.describe(failure)))\n")
        return false
    }
}

/// How far a scan got before it stopped because stdout took no more of its report.
public struct StoppedScan {
    public var scanned: Int
    public var listed: Int
    public init(scanned: Int, listed: Int) { self.scanned = scanned; self.listed = listed }
}
