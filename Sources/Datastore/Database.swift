import CSQLite
import Foundation

/// One connection to an SQLite file: the one seam where `sqlite3_*` calls are made (with
/// `Statement`). Everything else in the module speaks SQL through `execute` and `prepare`.
///
/// Not shared across threads: each thread that needs the datastore opens its own.
public final class Database {
    public enum Mode: Sendable {
        /// Read and write; the file is created when missing.
        case create
        /// Read and write an existing file.
        case readWrite
        /// Read only (report, summarize): a reader never takes a write lock.
        case readOnly
    }

    private(set) var handle: OpaquePointer?

    /// Opens `path`. sqlite opens lazily, so a file that is not a database is only found out
    /// by the first statement (`Schema.check` runs one before anything writes).
    public init(path: String, mode: Mode) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard rc == SQLITE_OK else {
            sqlite3_close_v2(db)
            handle = nil
            throw Database.error(rc, "cannot open the datastore")
        }
        // Before any statement reads the file's schema: see the shim.
        guard keyshape_sqlite3_distrust_schema(db) == SQLITE_OK else {
            sqlite3_close_v2(db)
            handle = nil
            throw DatastoreError(.sqlite, "cannot open the datastore (this sqlite cannot turn off triggers and views)")
        }
        // Writers in other processes (a sweep's jobs, parallel imports) hold the write lock
        // for one batch; waiting up to 30 s for it beats failing the run.
        sqlite3_busy_timeout(db, 30_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements that return no rows (schema, pragmas, BEGIN/COMMIT).
    public func execute(_ sql: String) throws {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw Database.error(rc, "datastore statement failed") }
    }

    public func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw Database.error(rc, "datastore statement could not be prepared")
        }
        return Statement(statement)
    }

    /// The first column of the first row as an integer (pragmas, counts).
    public func integer(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// `body` again while it fails with SQLITE_BUSY, for up to the busy timeout's 30 s: for
    /// the statements sqlite fails at once instead of waiting, where waiting could deadlock.
    public func retryingBusy<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                return try body()
            } catch let error as DatastoreError where error.kind == .sqlite && error.code & 0xff == SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// `body` inside one transaction: committed when it returns, rolled back when it throws.
    /// `BEGIN IMMEDIATE` takes the write lock up front, so two writers wait for each other
    /// (busy timeout) instead of one failing at its first write with SQLITE_BUSY.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// `what` plus sqlite's generic words for `code` (never the statement or its data).
    static func error(_ code: Int32, _ what: String) -> DatastoreError {
        let primary = code & 0xff
        let words = String(cString: sqlite3_errstr(code))
        if primary == SQLITE_NOTADB { return DatastoreError(.notADatabase, code: code, "not a keyshape datastore (the file is not an SQLite database)") }
        if primary == SQLITE_CORRUPT { return DatastoreError(.notADatabase, code: code, "the datastore is damaged (\(words))") }
        return DatastoreError(.sqlite, code: code, "\(what) (sqlite: \(words), code \(code))")
    }
}
