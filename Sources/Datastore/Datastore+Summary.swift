import ScanCore

extension Datastore {
    /// The summary of `findings` (as `findings(_:)` read them), with the runs that tell
    /// whether a key is still at HEAD. Call inside `snapshot` with the findings read.
    public func summary(of findings: [StoredFinding]) throws -> DatastoreSummary {
        // The latest finished sources scan (scan, audit) of each repository root.
        let latestSources = try db.prepare("""
            SELECT r.root, max(u.id) FROM runs u JOIN repositories r ON r.id = u.repository_id
            WHERE u.ended IS NOT NULL AND u.command IN ('scan', 'audit') GROUP BY r.root
            """).rows { ($0.text(0) ?? "", $0.int64(1)) }
        let sourcesRun = Dictionary(latestSources, uniquingKeysWith: max)
        let runCount = Int(try db.integer("SELECT count(*) FROM runs") ?? 0)

        var byRule: [String: DatastoreSummary.RuleCount] = [:]
        var byRepository: [String: DatastoreSummary.RepositoryCount] = [:]
        var groups: [String: [StoredFinding]] = [:]
        for s in findings {
            let f = s.finding
            byRule[f.rule, default: .init(rule: f.rule, description: f.description, findings: 0, open: 0)].findings += 1
            byRepository[s.repositoryRoot, default: .init(name: s.repository, root: s.repositoryRoot, findings: 0, open: 0)].findings += 1
            if s.status.isOpen {
                byRule[f.rule]!.open += 1
                byRepository[s.repositoryRoot]!.open += 1
            }
            groups[f.secretHash, default: []].append(s)
        }
        let bySecret = groups.map { hash, places -> DatastoreSummary.SecretGroup in
            let roots = Set(places.map(\.repositoryRoot))
            let dates = places.compactMap { $0.finding.location.kind == .commit ? $0.finding.location.date : nil }
            var present: Bool?
            if roots.contains(where: { sourcesRun[$0] != nil }) {
                present = places.contains { p in
                    let kind = p.finding.location.kind
                    return (kind == .file || kind == .binary) && sourcesRun[p.repositoryRoot] == p.lastSeenRun
                }
            }
            // A group is open while any of its places is.
            let status = places.contains { $0.status.isOpen } ? TriageStatus.open : places.map(\.status).min() ?? .open
            return .init(secretHash: hash, rules: Array(Set(places.map(\.finding.rule))).sorted(), places: places.count,
                         repositories: roots.count, firstCommitted: dates.min(), presentAtHead: present, status: status)
        }
        return DatastoreSummary(
            findings: findings.count, open: findings.filter { $0.status.isOpen }.count, runs: runCount,
            byRule: byRule.values.sorted { ($0.findings, $1.rule) > ($1.findings, $0.rule) },
            byRepository: byRepository.values.sorted { ($0.findings, $1.root) > ($1.findings, $0.root) },
            bySecret: bySecret.sorted { ($0.places, $1.secretHash) > ($1.places, $0.secretHash) })
    }
}
