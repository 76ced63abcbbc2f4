import Datastore
import Foundation
import ScanCore
import CommandLineFlags

/// `keyshape summarize --datastore DB`: counts by rule, by repository and by secret (one
/// `secretHash`: one key, however many places), read in one snapshot.
public enum SummarizeCommand {
    public static func run(_ arguments: [String], _ datastore: DatastoreFlags, _ context: RunContext) throws -> Int32 {
        let path = try DatastoreAccess.path(datastore, for: .summarize)
        guard arguments.isEmpty else { throw UsageError(message: "`keyshape summarize` takes no arguments besides its flags") }
        let store = try DatastoreAccess.reader(path)
        let summary: DatastoreSummary
        do {
            summary = try store.snapshot { try store.summary(of: try store.findings()) }
        } catch {
            throw DatastoreAccess.failure(path, error)
        }
        context.out(text(summary))
        return 0
    }

    /// Every name (rule, description, repository) escaped: they come from rules files and
    /// scanned trees.
    static func text(_ s: DatastoreSummary) -> String {
        let e = DisplayText.escaped
        var out = "\(s.findings) finding\(s.findings == 1 ? "" : "s") (\(s.open) open), \(s.bySecret.count) distinct secret\(s.bySecret.count == 1 ? "" : "s"), "
        out += "\(s.byRepository.count) repositor\(s.byRepository.count == 1 ? "y" : "ies"), \(s.runs) run\(s.runs == 1 ? "" : "s")\n"
        out += "\nBy rule:\n"
        for r in s.byRule { out += "  \(pad(r.findings)) (\(r.open) open)  \(e(r.rule))  \(e(r.description))\n" }
        out += "\nBy repository:\n"
        for r in s.byRepository { out += "  \(pad(r.findings)) (\(r.open) open)  \(e(r.name))  \(e(r.root))\n" }
        out += "\nBy secret:\n"
        for g in s.bySecret {
            var line = "  \(e(g.secretHash)) (\(g.rules.map(e).joined(separator: ", "))): one key, \(g.places) place\(g.places == 1 ? "" : "s") in \(g.repositories) repositor\(g.repositories == 1 ? "y" : "ies")"
            if let first = g.firstCommitted { line += ", first committed \(e(first))" }
            if let present = g.presentAtHead { line += ", still present at HEAD: \(present ? "yes" : "no")" }
            line += ", status \(g.status.rawValue)"
            out += line + "\n"
        }
        return out
    }

    static func pad(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: " ", count: max(0, 6 - s.count)) + s
    }
}
