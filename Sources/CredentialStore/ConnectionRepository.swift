import Foundation

/// Persistence for connection metadata (never secrets). Separate from the
/// credential store so metadata can live in a database, a JSON file or a
/// sync service while keys stay in the platform secret store.
public protocol ConnectionRepository: AnyObject, Sendable {
    func entry(for id: String) throws -> ConnectionEntry?
    func allEntries() throws -> [ConnectionEntry]
    func save(_ entry: ConnectionEntry) throws
    func remove(id: String) throws
    func removeAll() throws
}

public final class InMemoryConnectionRepository: ConnectionRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: ConnectionEntry] = [:]

    public init() {}

    public func entry(for id: String) throws -> ConnectionEntry? {
        lock.critical { entries[id] }
    }

    public func allEntries() throws -> [ConnectionEntry] {
        lock.critical { entries.values.sorted { $0.record.id < $1.record.id } }
    }

    public func save(_ entry: ConnectionEntry) throws {
        lock.critical { entries[entry.record.id] = entry }
    }

    public func remove(id: String) throws {
        _ = lock.critical { entries.removeValue(forKey: id) }
    }

    public func removeAll() throws {
        lock.critical { entries.removeAll() }
    }
}
