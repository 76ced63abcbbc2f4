import CSQLite

/// A prepared statement: bind by 1-based index, step, read columns by 0-based index.
/// Values are always bound, never spliced into SQL text.
public final class Statement {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` from index 1 on, after clearing earlier bindings and resetting.
    @discardableResult
    public func bind(_ values: [SQLValue]) throws -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (n, value) in values.enumerated() {
            let index = Int32(n + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .int(let i): rc = sqlite3_bind_int64(handle, index, i)
            case .double(let d): rc = sqlite3_bind_double(handle, index, d)
            case .text(let s):
                // The length is given, so a NUL inside the text is kept, not a terminator.
                let length = Int32(s.utf8.count)
                rc = s.withCString { keyshape_sqlite3_bind_text(handle, index, $0, length) }
            case .bytes(let b):
                rc = b.withUnsafeBytes { keyshape_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard rc == SQLITE_OK else { throw Database.error(rc, "datastore value could not be bound") }
        }
        return self
    }

    /// Advances to the next row: true when there is one, false when done.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw Database.error(rc, "datastore statement failed")
        }
    }

    /// Ends a read early, so the statement holds no lock.
    public func reset() { sqlite3_reset(handle) }

    /// Binds, steps to the end and resets: for INSERT and UPDATE.
    public func run(_ values: [SQLValue]) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Every row, each read by `row`.
    public func rows<T>(_ values: [SQLValue] = [], _ row: (Statement) throws -> T) throws -> [T] {
        try bind(values)
        var out: [T] = []
        while try step() { out.append(try row(self)) }
        sqlite3_reset(handle)
        return out
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(handle, column)) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// A BLOB column's bytes (empty for NULL or an empty BLOB).
    public func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let p = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }

    public func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}

/// A value bound to a statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    /// Raw bytes (a blob id, a blob scan record): a BLOB, never text.
    case bytes([UInt8])

    public static func optional(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
    public static func optional(_ i: Int?) -> SQLValue { i.map { .int(Int64($0)) } ?? .null }
}
