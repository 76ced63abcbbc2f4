import Foundation

/// A store that lives in process memory, for tests of code above the store
/// and for `--store memory` in the CLI. Nothing is persisted.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CredentialReference: Secret] = [:]

    public init() {}

    public func save(_ secret: Secret, for reference: CredentialReference) throws {
        lock.critical { items[reference] = secret }
    }

    public func read(_ reference: CredentialReference) throws -> Secret {
        guard let secret = lock.critical({ items[reference] }) else {
            throw CredentialStoreError.notFound(reference)
        }
        return secret
    }

    public func replace(_ secret: Secret, for reference: CredentialReference) throws {
        try lock.critical {
            guard items[reference] != nil else { throw CredentialStoreError.notFound(reference) }
            items[reference] = secret
        }
    }

    public func delete(_ reference: CredentialReference) throws {
        _ = lock.critical { items.removeValue(forKey: reference) }
    }

    public func deleteAll() throws {
        lock.critical { items.removeAll() }
    }

    public func listReferences() throws -> [CredentialReference] {
        lock.critical { items.keys.sorted() }
    }
}

extension InMemoryCredentialStore: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "InMemoryCredentialStore(\(lock.critical { items.count }) items)" }
    public var debugDescription: String { description }
    // Keep `dump` from walking into the dictionary of values.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
