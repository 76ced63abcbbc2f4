import Foundation

public enum LogLevel: Int, Comparable, Codable, Sendable, CustomStringConvertible {
    case debug, info, notice, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .notice: return "notice"
        case .warning: return "warning"
        case .error: return "error"
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Where a record comes from; a closed set, so categories cannot carry text.
public enum LogCategory: String, Encodable, Sendable {
    case request, response, redirect, stream, credential, analytics, backup, diagnostic, breadcrumb
}

/// One log line. Every text field is a `RedactedText`: a record cannot be built from
/// unchecked strings, so whatever a sink does with it (file, OSLog, crash reporter) is safe.
public struct LogRecord: Encodable, Sendable, CustomStringConvertible {
    public let date: Date
    public let level: LogLevel
    public let category: LogCategory
    public let connectionID: RedactedText?
    public let message: RedactedText
    /// Sorted by name.
    public let fields: [Field]

    public struct Field: Encodable, Sendable {
        public let name: RedactedText
        public let value: RedactedText
    }

    public var description: String {
        var line = "\(level) [\(category.rawValue)]"
        if let connectionID { line += " \(connectionID)" }
        line += " \(message)"
        for field in fields { line += " \(field.name)=\(field.value)" }
        return line
    }
}

/// The app's destination for log records (a file, OSLog, a crash reporter's breadcrumbs).
/// The library never prints; it only calls `write`.
public protocol LogSink: AnyObject, Sendable {
    func write(_ record: LogRecord)
}

/// Keeps records in memory, for diagnostics export and tests.
public final class CollectingLogSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [LogRecord] = []
    public let capacity: Int

    public init(capacity: Int = 1000) {
        self.capacity = capacity
    }

    public func write(_ record: LogRecord) {
        lock.lock(); defer { lock.unlock() }
        stored.append(record)
        if stored.count > capacity { stored.removeFirst(stored.count - capacity) }
    }

    public var records: [LogRecord] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}
