/// A TOML value.
///
/// Date-times are kept as the text that was written: the scanner only needs to
/// accept them, and keeping the text avoids picking a calendar library.
///
/// Only `table` is `indirect` (arrays already live on the heap): marking the
/// whole enum would put every scalar in a heap box of its own, which made
/// parsing rule files about a quarter slower.
public enum TOMLValue: Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case datetime(String)
    case array([TOMLValue])
    indirect case table(TOMLTable)

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// Integers convert too, because configuration authors write `entropy = 3`
    /// where a float is meant.
    public var doubleValue: Double? {
        switch self {
        case .float(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var datetimeValue: String? {
        if case .datetime(let value) = self { return value }
        return nil
    }

    public var arrayValue: [TOMLValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var tableValue: TOMLTable? {
        if case .table(let value) = self { return value }
        return nil
    }

    /// The TOML name of the value's type, for messages such as "expected a string, found integer".
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .boolean: return "boolean"
        case .datetime: return "datetime"
        case .array: return "array"
        case .table: return "table"
        }
    }
}

extension TOMLValue: Equatable {
    /// Written by hand so that `nan` equals `nan`: otherwise a document holding
    /// `nan` would never equal itself after a write/read round trip.
    public static func == (lhs: TOMLValue, rhs: TOMLValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.float(a), .float(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.boolean(a), .boolean(b)): return a == b
        case let (.datetime(a), .datetime(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.table(a), .table(b)): return a == b
        default: return false
        }
    }
}

extension TOMLValue: CustomDebugStringConvertible {
    /// Inline TOML, so test failures show `{ id = "x" }` rather than a dump of
    /// the storage. Values are shown in full: keep it out of logs.
    public var debugDescription: String { TOMLWriter.inline(self) }
}
