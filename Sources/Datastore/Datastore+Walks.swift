import Foundation
import ScanCore

/// A history run's commit walk, kept as it goes so a killed run is resumed: the commits it
/// started from and the run it built on (recorded as it begins), then each batch of commits
/// it attributed (with the errors met on the way) in `walk_commits`, ids as raw bytes, many
/// to a row.
extension Datastore {
    /// A killed history run that a new run may resume.
    public struct KilledWalk: Sendable, Equatable {
        public var run: Int64
        /// The commits it started from.
        public var tips: [String]
        /// The complete run it built on (nil: it walked the whole history).
        public var base: Int64?
    }

    /// The history run of `root` with these rules that was killed (never finished) after the
    /// latest finished one, and began before `run`; nil when there is none.
    public func killedWalk(root: String, rulesHash: String, before run: Int64) throws -> KilledWalk? {
        let s = try db.prepare("""
            SELECT u.id, u.walk_tips, u.base_run FROM runs u JOIN repositories r ON r.id = u.repository_id
            WHERE r.root = ? AND u.command = 'history' AND u.ended IS NULL AND u.walk_tips IS NOT NULL AND u.id < ?
              AND u.id > coalesce((SELECT max(v.id) FROM runs v WHERE v.repository_id = u.repository_id
                                   AND v.ended IS NOT NULL AND v.command IN ('history', 'audit')), 0)
            ORDER BY u.id DESC LIMIT 1
            """)
        guard let found = try s.rows([.text(root), .int(run)], { s in
            (id: s.int64(0), tips: (s.text(1) ?? "").split(separator: " ").map(String.init), base: s.isNull(2) ? nil : s.int64(2))
        }).first else { return nil }
        let hash = try db.prepare("SELECT rules_hash FROM runs WHERE id = ?").rows([.int(found.id)]) { $0.text(0) ?? "" }.first
        guard hash == rulesHash else { return nil }
        return KilledWalk(run: found.id, tips: found.tips, base: found.base)
    }

    /// Records the commits `run` starts from and the complete run it builds on, and, when it
    /// resumes the killed run `killed`, takes over what that one did: the commits it
    /// attributed, the errors it met on the way, and its findings (their last run becomes
    /// `run`). One transaction: a run killed while it began has taken over all or nothing.
    /// Returns the commits taken over (raw id bytes) and the errors. A resumed run killed in
    /// turn hands all of it on again, so a chain of killed runs adds up.
    public func beginWalk(run: Int64, tips: [String], base: Int64?, resuming killed: Int64?) throws
        -> (commits: [[UInt8]], issues: [ScanIssue]) {
        let repository = try repositoryOf(run: run)
        return try db.transaction {
            try db.prepare("UPDATE runs SET walk_tips = ?, base_run = ? WHERE id = ?")
                .run([.text(tips.joined(separator: " ")), base.map { .int($0) } ?? .null, .int(run)])
            guard let killed else { return ([], []) }
            try db.prepare("INSERT INTO walk_commits (run_id, width, ids) SELECT ?, width, ids FROM walk_commits WHERE run_id = ? ORDER BY id")
                .run([.int(run), .int(killed)])
            try db.prepare("INSERT INTO errors (run_id, path, message) SELECT ?, path, message FROM errors WHERE run_id = ? ORDER BY id")
                .run([.int(run), .int(killed)])
            try db.prepare("""
                UPDATE findings SET last_seen_run = ? WHERE repository_id = ? AND last_seen_run = ? AND kind IN ('commit', 'blob')
                """).run([.int(run), .int(repository), .int(killed)])
            return (try walkCommits(run: run), try errors(run: run))
        }
    }

    /// The commits `run` logged as attributed (raw id bytes), in the order logged.
    public func walkCommits(run: Int64) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        let s = try db.prepare("SELECT width, ids FROM walk_commits WHERE run_id = ? ORDER BY id")
        try s.bind([.int(run)])
        while try s.step() {
            let width = Int(s.int64(0)), ids = s.bytes(1)
            guard width == 20 || width == 32 else { continue }
            var at = 0
            while at + width <= ids.count { out.append(Array(ids[at..<at + width])); at += width }
        }
        s.reset()
        return out
    }

    /// Logs a batch of commits `run` attributed, and the errors met with them, in one
    /// transaction: one row per id width, however many commits.
    public func logWalk(run: Int64, commits: [[UInt8]], issues: [ScanIssue]) throws {
        var byWidth: [Int: [UInt8]] = [:]
        for c in commits where c.count == 20 || c.count == 32 { byWidth[c.count, default: []] += c }
        guard !byWidth.isEmpty || !issues.isEmpty else { return }
        try db.transaction {
            let insert = try db.prepare("INSERT INTO walk_commits (run_id, width, ids) VALUES (?, ?, ?)")
            for (width, ids) in byWidth.sorted(by: { $0.key < $1.key }) { try insert.run([.int(run), .int(Int64(width)), .bytes(ids)]) }
            let error = try db.prepare("INSERT INTO errors (run_id, path, message) VALUES (?, ?, ?)")
            for issue in issues { try error.run([.int(run), .text(issue.path), .text(issue.message)]) }
        }
    }
}
