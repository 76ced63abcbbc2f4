import Datastore
import Foundation
import ScanCore
import ScanPipeline
import CommandLineFlags

/// `keyshape import --datastore DB REPORT.jsonl...`: merges JSONL reports written by jobs
/// elsewhere (one per repository, say) into the datastore. Idempotent: a finding already
/// there (same repository, same place) is not added again, so importing a report twice, or
/// a re-run's report, changes no count.
///
/// Each report is one run, read whole before anything is written: a report that cannot be
/// read or parsed is an error (exit 2) and adds nothing; the others are still imported.
public enum ImportCommand {
    /// A report of up to this many bytes (a JSONL line is about 400 bytes: ~2.5 million findings).
    static let maxReportSize = 1 << 30

    public static func run(_ reports: [String], _ datastore: DatastoreFlags, _ context: RunContext) throws -> Int32 {
        let path = try DatastoreAccess.path(datastore, for: .importReports)
        guard !reports.isEmpty else { throw UsageError(message: "`keyshape import` needs one or more JSONL reports") }
        guard datastore.filterRepos.count <= 1 else { throw UsageError(message: "import: --repo names the one repository the reports belong to") }
        let store = try DatastoreAccess.open(path, create: true)
        var status: Int32 = 0
        for report in reports {
            let findings: [Finding]
            do {
                let bytes = try SettingsFile.contents(of: report, limit: maxReportSize)
                findings = try JSONLReport.parse(Data(bytes))
            } catch let e as JSONLReport.ReadError {
                context.err("keyshape: error: \(report): not a keyshape JSONL report (\(e))\n")
                status = 2
                continue
            } catch let e as SettingsFile.ReadError {
                context.err("keyshape: error: \(report): cannot read (\(e.message))\n")
                status = 2
                continue
            } catch {
                context.err("keyshape: error: \(report): cannot read (\(FileErrors.describe(error)))\n")
                status = 2
                continue
            }
            let name = datastore.filterRepos.first ?? defaultName(report)
            do {
                let run = try store.beginRun(RunStart(
                    command: "import", arguments: context.flagNames,
                    keyshapeVersion: KeyshapeVersion.current, rulePack: "", rulesHash: "",
                    repository: RepositoryRef(root: name, name: name)))
                try store.record(findings, run: run)
                try store.finishRun(run, findings: findings.count, errors: 0, stats: ScanStats())
                let total = try store.findingCount()
                context.err("keyshape import: \(report): \(findings.count) finding\(findings.count == 1 ? "" : "s") for \(name); the datastore holds \(total)\n")
            } catch {
                throw DatastoreAccess.failure(path, error)
            }
        }
        return status
    }

    /// `reports/acme-api.jsonl` belongs to `acme-api`.
    static func defaultName(_ report: String) -> String {
        var name = URL(fileURLWithPath: report).lastPathComponent
        for suffix in [".jsonl", ".json"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name
    }
}
