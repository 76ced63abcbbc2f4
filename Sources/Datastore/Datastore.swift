import Foundation
import ScanCore

/// keyshape's datastore: runs, repositories, findings (places and hashes, never values),
/// errors, blob scans and triage in one SQLite file.
///
/// Each method that writes does so in one transaction, so a reader (another process with
/// its own `Datastore`) sees a batch whole or not at all, and a killed writer leaves every
/// committed batch intact.
public final class Datastore {
    let db: Database
    public let path: String

    /// Findings written per transaction: large enough that a history of 100 000 findings
    /// commits a few hundred times, small enough that a reader never waits long.
    public static let batchSize = 500

    /// Opens (and with `create`, creates) the datastore at `path`. A file keyshape did not
    /// write, one from a newer keyshape, one whose schema was changed, or a path that is not a
    /// regular file (a FIFO) is an error and is left unchanged.
    public init(path: String, create: Bool) throws {
        self.path = path
        try DatastoreFile.check(path, mayCreate: create)
        db = try Database(path: path, mode: create ? .create : .readWrite)
        try Schema.prepare(db, writable: true)
    }

    /// A reader's connection: never writes, never creates.
    public init(readingAt path: String) throws {
        self.path = path
        try DatastoreFile.check(path, mayCreate: false)
        db = try Database(path: path, mode: .readOnly)
        try Schema.prepare(db, writable: false)
    }

    public var schemaVersion: Int64 { (try? db.integer("PRAGMA user_version")) ?? 0 }

    /// `PRAGMA integrity_check`: true when sqlite finds nothing wrong.
    public func integrityCheck() throws -> Bool {
        let statement = try db.prepare("PRAGMA integrity_check")
        let rows = try statement.rows { $0.text(0) ?? "" }
        return rows == ["ok"]
    }

    /// A read that sees one committed state throughout (WAL snapshot), however many
    /// statements it runs while writers commit.
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try db.execute("BEGIN DEFERRED")
        defer { try? db.execute("COMMIT") }
        return try body()
    }

    // MARK: Runs

    /// Records the repository (once per root) and a run that has started. The run stays
    /// unfinished (`ended` NULL) until `finishRun`: a killed run says so.
    public func beginRun(_ start: RunStart) throws -> Int64 {
        try db.transaction {
            let repository = try repositoryID(start.repository)
            try db.prepare("""
                INSERT INTO runs (repository_id, command, arguments, keyshape_version, rule_pack, rules_hash, started)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).run([.int(repository), .text(start.command), .text(start.arguments.joined(separator: " ")),
                          .text(start.keyshapeVersion), .text(start.rulePack), .text(start.rulesHash),
                          .double(start.started.timeIntervalSince1970)])
            return db.lastInsertRowID
        }
    }

    /// Whether the datastore already knows `root`'s identity (so a run need not ask git again).
    public func knowsIdentity(root: String) throws -> Bool {
        let s = try db.prepare("SELECT identity IS NOT NULL FROM repositories WHERE root = ?")
        try s.bind([.text(root)])
        return try s.step() && s.int64(0) != 0
    }

    /// The id of `repository`'s row, inserted or updated (a later run may know its identity).
    private func repositoryID(_ repository: RepositoryRef) throws -> Int64 {
        try db.prepare("""
            INSERT INTO repositories (root, name, identity) VALUES (?, ?, ?)
            ON CONFLICT (root) DO UPDATE SET identity = coalesce(excluded.identity, identity)
            """).run([.text(repository.root), .text(repository.name), .optional(repository.identity)])
        let select = try db.prepare("SELECT id FROM repositories WHERE root = ?")
        try select.bind([.text(repository.root)])
        guard try select.step() else { throw DatastoreError(.sqlite, "repository row missing after insert") }
        return select.int64(0)
    }

    /// Records `findings` as seen by `run`, `batchSize` to a transaction. A finding already
    /// there (same repository, same place) keeps its row and first run; its last run moves on.
    public func record(_ findings: [Finding], run: Int64) throws {
        let repository = try repositoryOf(run: run)
        var start = 0
        while start < findings.count {
            let batch = findings[start..<min(findings.count, start + Datastore.batchSize)]
            try db.transaction {
                let insert = try db.prepare(Datastore.upsertFinding)
                for f in batch { try insert.run(Datastore.values(f, repository: repository, run: run)) }
            }
            start += Datastore.batchSize
        }
    }

    public func record(_ issues: [ScanIssue], run: Int64) throws {
        guard !issues.isEmpty else { return }
        try db.transaction {
            let insert = try db.prepare("INSERT INTO errors (run_id, path, message) VALUES (?, ?, ?)")
            for issue in issues { try insert.run([.int(run), .text(issue.path), .text(issue.message)]) }
        }
    }

    /// Marks `run` finished with its counts. `complete`: it covered its repository's whole
    /// history (and `tips` are the commits it started from), so a later run may build on it.
    public func finishRun(_ run: Int64, findings: Int, errors: Int, stats: ScanStats, complete: Bool = false,
                          tips: [String] = [], ended: Date = Date()) throws {
        try db.transaction {
            let tip = try db.prepare("INSERT OR IGNORE INTO run_tips (run_id, commit_id) VALUES (?, ?)")
            for t in complete ? tips : [] { try tip.run([.int(run), .text(t)]) }
            try db.prepare("""
                UPDATE runs SET ended = ?, findings = ?, errors = ?, files = ?, bytes = ?, commits = ?, blobs = ?, complete = ?
                WHERE id = ?
                """).run([.double(ended.timeIntervalSince1970), .int(Int64(findings)), .int(Int64(errors)),
                          .int(Int64(stats.files)), .int(Int64(stats.bytes)), .int(Int64(stats.commits)),
                          .int(Int64(stats.blobs)), .int(complete ? 1 : 0), .int(run)])
        }
    }

    public func runs() throws -> [RunInfo] {
        try db.prepare("""
            SELECT id, repository_id, command, arguments, rules_hash, started, ended, findings, errors, complete, commits, blobs
            FROM runs ORDER BY id
            """).rows([], Datastore.runInfo)
    }

    static func runInfo(_ s: Statement) -> RunInfo {
        RunInfo(id: s.int64(0), repositoryID: s.int64(1), command: s.text(2) ?? "", arguments: s.text(3) ?? "",
                rulesHash: s.text(4) ?? "", started: s.double(5), ended: s.isNull(6) ? nil : s.double(6),
                findings: s.int(7), errors: s.int(8), complete: s.int64(9) != 0, commits: s.int(10), blobs: s.int(11))
    }

    /// The latest finished run of `root` that read its history (history, audit), and the
    /// commits it started from when it was complete: what an incremental history builds on.
    /// Only the latest counts: a findings row's last run is that run's, so an older run's
    /// set is no longer told apart once a newer one ran.
    public func latestHistoryRun(root: String) throws -> (run: RunInfo, tips: [String])? {
        let s = try db.prepare("""
            SELECT u.id, u.repository_id, u.command, u.arguments, u.rules_hash, u.started, u.ended, u.findings, u.errors,
                   u.complete, u.commits, u.blobs
            FROM runs u JOIN repositories r ON r.id = u.repository_id
            WHERE r.root = ? AND u.ended IS NOT NULL AND u.command IN ('history', 'audit')
            ORDER BY u.id DESC LIMIT 1
            """)
        guard let run = try s.rows([.text(root)], Datastore.runInfo).first else { return nil }
        let tips = try db.prepare("SELECT commit_id FROM run_tips WHERE run_id = ? ORDER BY commit_id").rows([.int(run.id)]) { $0.text(0) ?? "" }
        return (run, tips)
    }

    /// An incremental run saw again everything `base` saw in history: those findings' last
    /// run becomes `run`, so `run`'s findings are what a full run would have found.
    ///
    /// `base` is the latest finished history run, but a run killed after it may have moved
    /// some of its findings' last run on: a finding counts as base's when base or a later run
    /// was the last to see it and it was first seen no later than base. (One first seen by a
    /// killed later run is found again by this one, if a full run would find it.)
    public func carryForward(from base: Int64, to run: Int64) throws {
        let repository = try repositoryOf(run: run)
        try db.transaction {
            try db.prepare("""
                UPDATE findings SET last_seen_run = ?
                WHERE repository_id = ? AND last_seen_run >= ? AND last_seen_run < ? AND first_seen_run <= ?
                  AND kind IN ('commit', 'blob')
                """).run([.int(run), .int(repository), .int(base), .int(run), .int(base)])
        }
    }

    /// The latest finished run of `command` recorded for `root`.
    public func latestRun(root: String, command: String) throws -> RunInfo? {
        try db.prepare("""
            SELECT u.id, u.repository_id, u.command, u.arguments, u.rules_hash, u.started, u.ended, u.findings, u.errors,
                   u.complete, u.commits, u.blobs
            FROM runs u JOIN repositories r ON r.id = u.repository_id
            WHERE r.root = ? AND u.ended IS NOT NULL AND u.command = ?
            ORDER BY u.id DESC LIMIT 1
            """).rows([.text(root), .text(command)], Datastore.runInfo).first
    }

    /// The errors `run` recorded (an incremental run carries its base's forward).
    public func errors(run: Int64) throws -> [ScanIssue] {
        try db.prepare("SELECT path, message FROM errors WHERE run_id = ? ORDER BY path, message")
            .rows([.int(run)]) { ScanIssue(path: $0.text(0) ?? "", message: $0.text(1) ?? "") }
    }

    /// The errors recorded by the latest finished run of each repository.
    public func latestErrors() throws -> [ScanIssue] {
        try db.prepare("""
            SELECT e.path, e.message FROM errors e WHERE e.run_id IN
              (SELECT max(id) FROM runs WHERE ended IS NOT NULL GROUP BY repository_id)
            ORDER BY e.path, e.message
            """).rows { ScanIssue(path: $0.text(0) ?? "", message: $0.text(1) ?? "") }
    }

    func repositoryOf(run: Int64) throws -> Int64 {
        let s = try db.prepare("SELECT repository_id FROM runs WHERE id = ?")
        try s.bind([.int(run)])
        guard try s.step(), !s.isNull(0) else { throw DatastoreError(.request, "no such run") }
        return s.int64(0)
    }

    static let upsertFinding = """
        INSERT INTO findings (repository_id, place, rule, description, fingerprint, secret_hash, kind, path, line,
            column_number, end_line, end_column, byte_offset, byte_length, format, arch, section, file_offset,
            virtual_address, commit_id, blob, author, email, commit_date, first_seen_run, last_seen_run, provenance)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (repository_id, place) DO UPDATE SET last_seen_run = max(last_seen_run, excluded.last_seen_run),
            description = excluded.description
        """

    static func values(_ f: Finding, repository: Int64, run: Int64) -> [SQLValue] {
        let l = f.location
        return [.int(repository), .text(PlaceKey.of(f)), .text(f.rule), .text(f.description), .text(f.fingerprint),
                .text(f.secretHash), .text(l.kind.rawValue), .optional(l.path), .optional(l.line), .optional(l.column),
                .optional(l.endLine), .optional(l.endColumn), .int(Int64(l.byteOffset)), .int(Int64(l.byteLength)),
                .optional(l.format), .optional(l.arch), .optional(l.section), .optional(l.fileOffset),
                l.virtualAddress.map { .int(Int64(bitPattern: $0)) } ?? .null,
                .optional(l.commit), .optional(l.blob), .optional(l.author), .optional(l.email), .optional(l.date),
                .int(run), .int(run), .text(ProvenanceCoding.encode(l.provenance))]
    }
}
