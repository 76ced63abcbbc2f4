import Foundation
import ScanCore
import ScanPipeline
import ScanReport
import MatchEngine
import StandardStreams
import CommandLineFlags

/// `keyshape scan [PATH ...]`.
public enum ScanCommand {
    public static func run(_ inv: Invocation, _ context: RunContext) throws -> Int32 {
        let roots = inv.positionals.isEmpty ? ["."] : inv.positionals
        let readsStdin = roots.contains("-")
        if readsStdin && roots.count > 1 {
            throw UsageError(message: "`scan -` reads standard input alone; scan other paths in a separate run")
        }
        let (ruleSet, options) = try ScanSetup.prepare(inv, roots: readsStdin ? ["."] : roots, context: context)
        let scanner = Scanner(ruleSet: ruleSet, options: options)
        let progress = context.progressLine(inv.report, scanner.progress)
        // Text and JSONL on stdout are written as each file is done (the first line of a long
        // scan arrives at once); --sort, or any other report, waits for the sorted whole.
        let streamed = inv.report.format.streams && inv.report.output == nil && !inv.report.sort
        if streamed {
            var streamOptions = ReportOptions()
            streamOptions.color = Report.colors(inv.report, context)
            let pieces = streamOptions, format = inv.report.format
            // Once stdout takes no more (`scan . | head -1`), the rest of the tree would be
            // scanned for nobody: stop, as ripgrep does, unless a file still needs the whole
            // result (`--write-baseline`, `--sarif-output` and the like).
            let stopsWithStdout = inv.report.writeBaseline == nil && inv.report.extraOutputs.isEmpty
            let minimum = inv.report.minConfidence ?? .low
            scanner.onFileFindings = { [weak scanner] findings in
                let text = format.render(ScanResult(findings: findings.filter { $0.confidence >= minimum }), pieces)
                if let progress { progress.clearedWhile { context.out(text) } } else { context.out(text) }
                if stopsWithStdout && context.stdoutFailed() { scanner?.stop() }
            }
        }
        // --datastore: findings are recorded as they are reported, batch by batch.
        if let recorder = context.recorder { scanner.sink = recorder.streaming(into: scanner.sink) }
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
        for note in notes { context.err("keyshape: note: \(note)\n") }
        let stopped = scanner.stopped ? StoppedScan(scanned: result.stats.files, listed: scanner.progress.filesTotal.load(ordering: .relaxed)) : nil
        return try Report.deliver(result, inv.report, command: inv.command, options, roots: .scan(roots), context: context, streamed: streamed, stopped: stopped)
    }
}
