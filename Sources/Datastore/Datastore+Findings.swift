import Foundation
import ScanCore

extension Datastore {
    /// The findings `filter` selects, with their triage, in report order (repository, then
    /// location). Call inside `snapshot` to read them with other tables at one state.
    public func findings(_ filter: FindingFilter = FindingFilter()) throws -> [StoredFinding] {
        let statement = try db.prepare("""
            SELECT f.rule, f.description, f.fingerprint, f.secret_hash, f.kind, f.path, f.line, f.column_number,
                   f.end_line, f.end_column, f.byte_offset, f.byte_length, f.format, f.arch, f.section, f.file_offset,
                   f.virtual_address, f.commit_id, f.blob, f.author, f.email, f.commit_date,
                   f.first_seen_run, f.last_seen_run, r.name, r.root, r.identity, t.status, t.note, f.provenance
            FROM findings f JOIN repositories r ON r.id = f.repository_id
            LEFT JOIN triage t ON t.fingerprint = f.fingerprint
            """)
        var out: [StoredFinding] = []
        try statement.bind([])
        while try statement.step() {
            let s = statement
            guard let kind = Location.Kind(rawValue: s.text(4) ?? "") else { continue }
            var l = Location(kind: kind, path: s.text(5), byteOffset: s.int(10) ?? 0, byteLength: s.int(11) ?? 0)
            l.line = s.int(6); l.column = s.int(7); l.endLine = s.int(8); l.endColumn = s.int(9)
            // Only a binary place when one was recorded: setting a binary field makes one.
            l.binary = s.text(12).map { BinaryPlace(format: $0, arch: s.text(13), section: s.text(14), fileOffset: s.int(15) ?? l.byteOffset,
                                                    virtualAddress: s.isNull(16) ? nil : UInt64(bitPattern: s.int64(16))) }
            l.commit = s.text(17); l.blob = s.text(18); l.author = s.text(19); l.email = s.text(20); l.date = s.text(21)
            // The whole provenance where it was recorded (schema 3 on); the flat columns before.
            if let coded = s.text(29), let provenance = ProvenanceCoding.decode(coded) { l.provenance = provenance }
            let finding = Finding(rule: s.text(0) ?? "", description: s.text(1) ?? "", fingerprint: s.text(2) ?? "",
                                  secretHash: s.text(3) ?? "", location: l)
            let stored = StoredFinding(finding: finding, repository: s.text(24) ?? "", repositoryRoot: s.text(25) ?? "",
                                       status: s.text(27).flatMap(TriageStatus.init(rawValue:)) ?? .open, note: s.text(28),
                                       firstSeenRun: s.int64(22), lastSeenRun: s.int64(23))
            let identity = s.text(26)
            guard filter.statuses.isEmpty || filter.statuses.contains(stored.status) else { continue }
            guard filter.lastSeenRun.map({ $0 == stored.lastSeenRun }) ?? true else { continue }
            guard filter.rules.isEmpty || filter.rules.contains(finding.rule) else { continue }
            guard filter.repositories.isEmpty || filter.repositories.contains(stored.repository)
                    || filter.repositories.contains(stored.repositoryRoot) || identity.map(filter.repositories.contains) == true
            else { continue }
            out.append(stored)
        }
        return out.sorted { a, b in
            a.repository != b.repository ? a.repository < b.repository
                : a.repositoryRoot != b.repositoryRoot ? a.repositoryRoot < b.repositoryRoot : a.finding < b.finding
        }
    }

    public func findingCount() throws -> Int {
        Int(try db.integer("SELECT count(*) FROM findings") ?? 0)
    }

    // MARK: Triage

    /// Sets `status` (and `note`, or clears it) for each fingerprint, all or none: a
    /// fingerprint no recorded finding has is an error (a typo would otherwise triage
    /// nothing and say so quietly). An id that is no fingerprint but a secret hash (as
    /// `summarize` prints them) stands for every fingerprint recorded with that secret: one key
    /// found in forty places is one call. Returns how many findings the ids cover.
    @discardableResult
    public func triage(_ ids: [String], status: TriageStatus, note: String?, time: Date = Date()) throws -> Int {
        try db.transaction {
            let known = try db.prepare("SELECT count(*) FROM findings WHERE fingerprint = ?")
            let bySecret = try db.prepare("SELECT DISTINCT fingerprint FROM findings WHERE secret_hash = ?")
            var covered = 0
            var fingerprints: [String] = []
            for (n, id) in ids.enumerated() {
                try known.bind([.text(id)])
                _ = try known.step()
                let count = Int(known.int64(0))
                known.reset()
                if count > 0 {
                    covered += count
                    fingerprints.append(id)
                    continue
                }
                let places = try bySecret.rows([.text(id)]) { $0.text(0) ?? "" }.filter { !$0.isEmpty }
                // Which argument, not what it said: an argument may be anything.
                if places.isEmpty { throw DatastoreError(.request, "id \(n + 1) of \(ids.count): no recorded finding has it as fingerprint or secret hash") }
                for fingerprint in places {
                    try known.bind([.text(fingerprint)])
                    _ = try known.step()
                    covered += Int(known.int64(0))
                    known.reset()
                    fingerprints.append(fingerprint)
                }
            }
            let upsert = try db.prepare("""
                INSERT INTO triage (fingerprint, status, note, time) VALUES (?, ?, ?, ?)
                ON CONFLICT (fingerprint) DO UPDATE SET status = excluded.status, note = excluded.note, time = excluded.time
                """)
            for fingerprint in fingerprints {
                try upsert.run([.text(fingerprint), .text(status.rawValue), .optional(note), .double(time.timeIntervalSince1970)])
            }
            return covered
        }
    }

    /// Fingerprints triaged as anything but open: a later scan into this datastore takes
    /// them as its baseline.
    public func settledFingerprints() throws -> Set<String> {
        Set(try db.prepare("SELECT fingerprint FROM triage WHERE status <> 'open'").rows { $0.text(0) ?? "" })
    }

    /// The settled fingerprints with the secret hash of each value recorded under them, as
    /// `fingerprint/secretHash`: fingerprints name places, not values, so a decision covers the
    /// values it was made on, and another value later found at the same place is reported.
    public func settledPairs() throws -> Set<String> {
        Set(try db.prepare("SELECT DISTINCT f.fingerprint, f.secret_hash FROM findings f JOIN triage t ON t.fingerprint = f.fingerprint "
                           + "WHERE t.status <> 'open'").rows { ($0.text(0) ?? "") + "/" + ($0.text(1) ?? "") })
    }

    /// The datastore's own key for secret hashes (`SecretKeying`): created at random on first
    /// need, kept in the file, never printed or exported.
    public func secretKey() throws -> [UInt8] {
        try db.transaction {
            let read = try db.prepare("SELECT value FROM keys WHERE name = 'secret-hash'")
            if try read.step() {
                let key = read.bytes(0)
                if key.count == 32 { return key }
                throw DatastoreError(.foreign, "the datastore's hash key is damaged; nothing was changed")
            }
            var generator = SystemRandomNumberGenerator()
            let key = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) }
            try db.prepare("INSERT INTO keys (name, value) VALUES ('secret-hash', ?)").run([.bytes(key)])
            return key
        }
    }
}
