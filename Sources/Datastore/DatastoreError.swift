/// Why the datastore could not do what it was asked. A value, never a trap.
///
/// Messages are keyshape's own words plus sqlite's generic text for the result code
/// (`sqlite3_errstr`): never the SQL, never sqlite's per-statement message (which can quote
/// a column's contents), so no path, note or hash of a scanned input reaches an error.
public struct DatastoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A call into sqlite failed with this result code.
        case sqlite
        /// The file is not an SQLite database (or is damaged beyond opening).
        case notADatabase
        /// An SQLite database, but not one keyshape wrote (no schema marker).
        case foreign
        /// keyshape's marker, but a schema keyshape did not create (a planted trigger, view,
        /// index or table, a changed table): refused, never written to.
        case tampered
        /// Written by a newer keyshape: its schema version is above the one this build knows.
        case newerSchema
        /// The path (or a file sqlite keeps beside it) is a FIFO, a device, a folder: refused
        /// before anything opens it (a FIFO would block the open forever).
        case notARegularFile
        /// The datastore does not exist and was not to be created (report, summarize, triage).
        case missing
        /// A request the datastore cannot honour (an unknown fingerprint, a bad status).
        case request
    }

    public var kind: Kind
    /// sqlite's (extended) result code; 0 when the error is keyshape's own.
    public var code: Int32
    public var message: String

    public init(_ kind: Kind, code: Int32 = 0, _ message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
