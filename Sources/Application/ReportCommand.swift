import Datastore
import Foundation
import ScanCore
import ScanReport
import CommandLineFlags

/// `keyshape report --datastore DB [--format F] [--status S,...] [--rule ID] [--repo R]`:
/// the recorded findings through the same reporters a scan uses. By default only open
/// findings: a triaged one (accepted, false-positive, revoked, fixed) is settled, as a
/// baseline would have it. The datastore is read in one snapshot, so a scan writing at the
/// same time shows its batches whole or not at all.
public enum ReportCommand {
    public static func run(_ arguments: [String], _ report: ReportFlags, _ datastore: DatastoreFlags, _ context: RunContext) throws -> Int32 {
        let path = try DatastoreAccess.path(datastore, for: .report)
        guard arguments.isEmpty else { throw UsageError(message: "`keyshape report` takes no arguments besides its flags") }
        let store = try DatastoreAccess.reader(path)
        let filter = FindingFilter(statuses: Set(datastore.statuses.isEmpty ? [.open] : datastore.statuses),
                                   rules: Set(datastore.filterRules), repositories: Set(datastore.filterRepos))
        let (stored, issues): ([StoredFinding], [ScanIssue])
        do {
            (stored, issues) = try store.snapshot { (try store.findings(filter), try store.latestErrors()) }
        } catch {
            throw DatastoreAccess.failure(path, error)
        }
        var result = ScanResult(findings: stored.map(\.finding), issues: issues, rules: rules(of: stored))
        result.stats = ScanStats()
        var options = ReportOptions()
        options.context = stored.map { FindingContext(repository: $0.repository, status: $0.status.rawValue, note: $0.note) }
        options.title = "keyshape report: " + URL(fileURLWithPath: path).lastPathComponent
        options.sarif = SARIFSettings(category: Report.category(report, command: .report))
        options.scanTimes = Report.scanTimes(seconds: 0)
        var primary = options
        primary.color = Report.colors(report, context)

        // A report of what the datastore holds succeeds whatever it holds (a `set -e` script
        // that wants the page must not stop on it); a gate asks with --exit-code.
        var status: Int32 = !report.exitCodeGiven ? 0 : issues.isEmpty ? (stored.isEmpty ? 0 : report.exitCode) : 2
        if let output = report.output {
            if !Report.write(report.format.render(result, primary), to: output, context) { status = 2 }
        } else {
            context.out(report.format.render(result, primary))
        }
        for extra in report.extraOutputs where !Report.write(extra.format.render(result, options), to: extra.path, context) { status = 2 }
        if !report.format.carriesErrors || report.output != nil {
            for issue in issues { context.err("keyshape: error: \(issue)\n") }
        }
        let shown = filter.statuses.sorted().map(\.rawValue).joined(separator: ", ")
        context.err("keyshape report: \(stored.count) finding\(stored.count == 1 ? "" : "s") (\(shown))"
                     + (issues.isEmpty ? "" : "; \(issues.count) error\(issues.count == 1 ? "" : "s") in the latest runs") + "\n")
        return status
    }

    /// The rules the findings name, for SARIF's `tool.driver.rules`.
    static func rules(of stored: [StoredFinding]) -> [RuleInfo] {
        var seen: [String: RuleInfo] = [:]
        for s in stored where seen[s.finding.rule] == nil {
            seen[s.finding.rule] = RuleInfo(id: s.finding.rule, description: s.finding.description, tags: [])
        }
        return seen.values.sorted { $0.id < $1.id }
    }
}
