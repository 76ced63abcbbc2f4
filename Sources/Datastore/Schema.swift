/// The datastore's tables, its marker and its forward migrations.
///
/// A keyshape datastore says so in its header: `PRAGMA application_id` is `Schema.marker`
/// and `PRAGMA user_version` the schema version. A file without the marker is never
/// written to: an empty file (or a missing one, which sqlite creates empty) becomes a new
/// datastore; anything else (another program's database, a file that is not SQLite, a
/// datastore from a newer keyshape, one whose schema is not exactly what `migrations` create:
/// `SchemaObjects`) is an error and the file is left as it was.
enum Schema {
    /// "KSHD" in ASCII.
    static let marker: Int64 = 0x4B53_4844

    /// `migrations[n]` takes a datastore from version n to n + 1; the current version is
    /// their count. Append only: a released migration is never edited.
    static let migrations: [String] = [
        // 1: runs, repositories, findings, errors, blob scans, triage.
        """
        CREATE TABLE repositories (
            id INTEGER PRIMARY KEY,
            root TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            identity TEXT
        );
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            repository_id INTEGER REFERENCES repositories(id),
            command TEXT NOT NULL,
            arguments TEXT NOT NULL,
            keyshape_version TEXT NOT NULL,
            rule_pack TEXT NOT NULL,
            rules_hash TEXT NOT NULL,
            started REAL NOT NULL,
            ended REAL,
            findings INTEGER,
            errors INTEGER,
            files INTEGER,
            bytes INTEGER,
            commits INTEGER,
            blobs INTEGER
        );
        CREATE TABLE findings (
            id INTEGER PRIMARY KEY,
            repository_id INTEGER NOT NULL REFERENCES repositories(id),
            place TEXT NOT NULL,
            rule TEXT NOT NULL,
            description TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            secret_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            path TEXT,
            line INTEGER,
            column_number INTEGER,
            end_line INTEGER,
            end_column INTEGER,
            byte_offset INTEGER NOT NULL,
            byte_length INTEGER NOT NULL,
            format TEXT,
            arch TEXT,
            section TEXT,
            file_offset INTEGER,
            virtual_address INTEGER,
            commit_id TEXT,
            blob TEXT,
            author TEXT,
            email TEXT,
            commit_date TEXT,
            first_seen_run INTEGER NOT NULL REFERENCES runs(id),
            last_seen_run INTEGER NOT NULL REFERENCES runs(id),
            UNIQUE (repository_id, place)
        );
        CREATE INDEX findings_fingerprint ON findings(fingerprint);
        CREATE INDEX findings_secret_hash ON findings(secret_hash);
        CREATE TABLE errors (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            path TEXT NOT NULL,
            message TEXT NOT NULL
        );
        CREATE TABLE blob_scans (
            blob TEXT NOT NULL,
            rules_hash TEXT NOT NULL,
            findings INTEGER NOT NULL,
            PRIMARY KEY (blob, rules_hash)
        ) WITHOUT ROWID;
        CREATE TABLE triage (
            fingerprint TEXT PRIMARY KEY,
            status TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'false-positive', 'revoked', 'fixed')),
            note TEXT,
            time REAL NOT NULL
        );
        """,
        // 2: incremental history. A run that covered a repository's whole history is marked
        // complete, with the commits it started from (ref tips and reflog entries), so the
        // next run with the same rules walks only the commits those do not reach.
        """
        ALTER TABLE runs ADD COLUMN complete INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE run_tips (
            run_id INTEGER NOT NULL REFERENCES runs(id),
            commit_id TEXT NOT NULL,
            PRIMARY KEY (run_id, commit_id)
        ) WITHOUT ROWID;
        """,
        // 3: the whole provenance (archive members, decoded spans, commit text, raw path
        // bytes), as ProvenanceCoding writes it; the flat columns stay for queries and for
        // rows written before.
        """
        ALTER TABLE findings ADD COLUMN provenance TEXT;
        """,
        // 4: the per-blob cache. Version 1's `blob_scans` (text keys, a count) was never
        // written; it is replaced by one keyed for lookups: the rule set by number (its
        // `RulesIdentity` hash once, in `rule_sets`) and the blob id as its raw bytes, with
        // the scanner's record of what the blob gave (`BlobScanStore`: rule ids, positions,
        // secret hashes; never a byte of the blob).
        """
        DROP TABLE blob_scans;
        CREATE TABLE rule_sets (
            id INTEGER PRIMARY KEY,
            rules_hash TEXT NOT NULL UNIQUE
        );
        CREATE TABLE blob_scans (
            rule_set INTEGER NOT NULL REFERENCES rule_sets(id),
            blob BLOB NOT NULL,
            findings INTEGER NOT NULL,
            record BLOB NOT NULL,
            PRIMARY KEY (rule_set, blob)
        ) WITHOUT ROWID;
        """,
        // 5: cheap recording, resumable walks. Most blobs give no finding: their ids go in
        // `clean_blobs`, one row per write of many ids (`width` bytes each, concatenated), an
        // append at the end of the table instead of a B-tree insert at a random key per blob;
        // `blob_scans` keeps the records that say something (and version 4's clean rows, which
        // stay valid). A history run records the commits it attributed as it goes
        // (`walk_commits`, same layout), the commits it started from (`walk_tips`) and the
        // complete run it built on (`base_run`), so a run killed mid-way is resumed by the
        // next one rather than walked again.
        """
        CREATE TABLE clean_blobs (
            id INTEGER PRIMARY KEY,
            rule_set INTEGER NOT NULL REFERENCES rule_sets(id),
            width INTEGER NOT NULL,
            ids BLOB NOT NULL
        );
        CREATE INDEX clean_blobs_rule_set ON clean_blobs(rule_set);
        CREATE TABLE walk_commits (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            width INTEGER NOT NULL,
            ids BLOB NOT NULL
        );
        CREATE INDEX walk_commits_run ON walk_commits(run_id);
        ALTER TABLE runs ADD COLUMN walk_tips TEXT;
        ALTER TABLE runs ADD COLUMN base_run INTEGER;
        """,
        // 2: the datastore's own key for secret hashes (never printed; see SecretKeying).
        """
        CREATE TABLE keys (
            name TEXT PRIMARY KEY,
            value BLOB NOT NULL
        );
        """,
    ]

    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Checks what `db` holds before anything is written, then (when `writable`) turns on
    /// WAL and brings the schema up to date. Throws, having written nothing, on a file that
    /// is not ours.
    static func prepare(_ db: Database, writable: Bool) throws {
        // The first read: sqlite reports a file that is not a database here. The three reads
        // share one read transaction: read apart, a second process creating the same new
        // datastore (parallel imports) could commit its first migration between them, and this
        // one would see tables without the marker and refuse the file as another program's.
        let applicationID, version, objects: Int64
        try db.execute("BEGIN")
        do {
            applicationID = try db.integer("PRAGMA application_id") ?? 0
            version = try db.integer("PRAGMA user_version") ?? 0
            objects = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            // Before any statement reads a table: a trigger, view or changed table planted in
            // the file is refused here (SchemaObjects), whatever the command.
            if applicationID == marker && version <= currentVersion { try SchemaObjects.check(db, version: version) }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        if applicationID != marker {
            guard applicationID == 0, version == 0, objects == 0 else {
                throw DatastoreError(.foreign, "not a keyshape datastore (an SQLite database another program wrote); nothing was changed")
            }
            guard writable else {
                throw DatastoreError(.missing, "not a keyshape datastore yet (empty): record a run into it first")
            }
        } else if version > currentVersion {
            throw DatastoreError(.newerSchema, "the datastore was written by a newer keyshape (schema \(version), this one knows up to \(currentVersion)); nothing was changed")
        }
        guard writable else { return }
        // WAL: readers (report, summarize) see the last committed batch while a scan writes,
        // and a killed writer leaves the committed batches intact. synchronous=NORMAL in WAL
        // loses nothing to a killed process (only to a power cut, the last batches).
        // Switching a new datastore to WAL takes an exclusive lock from a shared one: when
        // two processes create one datastore at once (parallel imports) and both hold the
        // shared lock, sqlite returns SQLITE_BUSY to one at once rather than wait (waiting
        // could deadlock); once the other has switched, the retry finds WAL on.
        _ = try db.retryingBusy { try db.integer("PRAGMA journal_mode=WAL") }
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA foreign_keys=ON")
        try migrate(db)
    }

    /// Each pending migration in its own transaction, with the version it reaches.
    private static func migrate(_ db: Database) throws {
        while true {
            // Read inside the transaction: two processes creating one datastore at once
            // (parallel imports) must not both run migration 1.
            let done: Bool = try db.transaction {
                let version = try db.integer("PRAGMA user_version") ?? 0
                guard version < currentVersion else { return true }
                try db.execute(migrations[Int(version)])
                try db.execute("PRAGMA user_version = \(version + 1)")
                try db.execute("PRAGMA application_id = \(marker)")
                return false
            }
            if done { return }
        }
    }
}
