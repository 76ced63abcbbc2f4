import Datastore
import Foundation
import CommandLineFlags

/// `keyshape triage --datastore DB FINGERPRINT... --status S [--note TEXT]`: an auditor's
/// decision, per fingerprint, kept across re-scans. All the fingerprints or none: one that
/// no recorded finding has is an error, so a typo never triages nothing quietly.
public enum TriageCommand {
    public static func run(_ fingerprints: [String], _ datastore: DatastoreFlags, _ context: RunContext) throws -> Int32 {
        let path = try DatastoreAccess.path(datastore, for: .triage)
        guard datastore.statuses.count == 1, let status = datastore.statuses.first else {
            throw UsageError(message: "`keyshape triage` needs --status with one of \(TriageStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard !fingerprints.isEmpty else { throw UsageError(message: "`keyshape triage` needs one or more fingerprints (or secret hashes: every place of that secret)") }
        let store = try DatastoreAccess.open(path, create: false)
        let covered: Int
        do { covered = try store.triage(fingerprints, status: status, note: datastore.note) } catch {
            throw DatastoreAccess.failure(path, error)
        }
        let n = fingerprints.count
        context.err("keyshape triage: \(n) fingerprint\(n == 1 ? "" : "s") (\(covered) finding\(covered == 1 ? "" : "s")) now \(status.rawValue)\n")
        return 0
    }
}
