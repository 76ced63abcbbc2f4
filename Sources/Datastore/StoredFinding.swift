import Foundation
import ScanCore

/// A finding as the datastore holds it: the place and hashes (never a value), which
/// repository, its triage and when runs saw it.
public struct StoredFinding: Sendable, Hashable {
    public var finding: Finding
    public var repository: String
    public var repositoryRoot: String
    public var status: TriageStatus
    /// The auditor's note: data, escaped wherever it is shown.
    public var note: String?
    public var firstSeenRun: Int64
    public var lastSeenRun: Int64
}

/// Which findings `report` and `summarize` read. Empty sets mean "any".
public struct FindingFilter: Sendable {
    public var statuses: Set<TriageStatus>
    public var rules: Set<String>
    /// Repository names, roots or identities.
    public var repositories: Set<String>
    /// Only findings this run was the last to see.
    public var lastSeenRun: Int64?

    public init(statuses: Set<TriageStatus> = [], rules: Set<String> = [], repositories: Set<String> = [], lastSeenRun: Int64? = nil) {
        self.statuses = statuses
        self.rules = rules
        self.repositories = repositories
        self.lastSeenRun = lastSeenRun
    }
}

/// One finding's place within its repository: what makes two findings the same one when a
/// run records it again (or an import merges it twice). Built from the location and the
/// rule, never from anything that could hold a value.
enum PlaceKey {
    static func of(_ f: Finding) -> String {
        let l = f.location
        var parts: [String] = [f.rule, f.fingerprint, l.kind.rawValue, ProvenanceCoding.encode(l.provenance)]
        func add(_ s: String?) { parts.append(s ?? "") }
        func add(_ i: Int?) { parts.append(i.map(String.init) ?? "") }
        add(l.format); add(l.arch); add(l.section); add(l.fileOffset); add(l.line); add(l.column)
        parts.append(String(l.byteOffset)); parts.append(String(l.byteLength))
        // The separator is escaped inside the parts, so two different places never join alike.
        return parts.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|") }
            .joined(separator: "|")
    }
}
