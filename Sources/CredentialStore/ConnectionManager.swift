import Foundation

/// Connections and their credentials: metadata in a `ConnectionRepository`,
/// secrets in a `CredentialStore`, and the lifecycle that ties them.
///
/// Operations are serialised by one lock: rotation and cleanup reason about
/// "the one referenced item", which only holds if they do not interleave.
public final class ConnectionManager: @unchecked Sendable {
    public let store: CredentialStore
    public let repository: ConnectionRepository
    public let hooks: ConnectionHooks
    /// Attempts per item when deleting; a second try covers transient D-Bus
    /// or keychain hiccups without hiding a persistent failure.
    public let deletionAttempts: Int
    let now: @Sendable () -> Date
    let lock = NSRecursiveLock()

    public init(store: CredentialStore, repository: ConnectionRepository, hooks: ConnectionHooks = .none,
                deletionAttempts: Int = 2, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.repository = repository
        self.hooks = hooks
        self.deletionAttempts = max(1, deletionAttempts)
        self.now = now
    }

    // MARK: Configure

    /// Stores the key (and protected header values) and then the record.
    /// Items are written before the record so a record never points at
    /// nothing; if the record cannot be written the items are removed again.
    @discardableResult
    public func configure(_ draft: ConnectionRecord, apiKey: Secret,
                          protectedHeaders: [String: Secret] = [:]) throws -> ConnectionRecord {
        try lock.critical {
            guard CredentialReference.isValidComponent(draft.id) else { throw ConnectionError.invalidConnectionID(draft.id) }
            if let existing = try loadEntry(draft.id) {
                throw existing.isTombstone ? ConnectionError.pendingCleanup(draft.id) : ConnectionError.alreadyExists(draft.id)
            }
            var record = draft
            record.protectedHeaderNames = protectedHeaders.keys.sorted()
            try validate(record, secrets: [apiKey] + Array(protectedHeaders.values), key: apiKey)

            let keyReference = try storeError { try CredentialReference.apiKey(for: record.id) }
            var written: [CredentialReference] = []
            do {
                try store.save(apiKey, for: keyReference)
                written.append(keyReference)
                for (name, value) in protectedHeaders.sorted(by: { $0.key < $1.key }) {
                    let reference = try record.headerReference(name)
                    try store.save(value, for: reference)
                    written.append(reference)
                }
                record.credentialReference = keyReference
                try saveEntry(ConnectionEntry(record: record, state: .configured))
            } catch {
                // Best effort: anything left over has no live record and is
                // removed by `completePendingCleanup()`.
                for reference in written { try? store.delete(reference) }
                throw wrap(error)
            }
            return record
        }
    }

    // MARK: Read

    /// The key for routine use (sending requests). Refuses keys whose state
    /// says they must not be sent.
    public func apiKey(for id: String) throws -> Secret {
        try lock.critical {
            let entry = try liveEntry(id)
            guard entry.state.isUsable, let reference = entry.record.credentialReference else {
                throw ConnectionError.notUsable(id, entry.state)
            }
            return try storeError { try store.read(reference) }
        }
    }

    /// Explicit reveal for showing or copying the raw key; kept apart from
    /// `apiKey(for:)` so a backend can require user presence for it.
    public func revealAPIKey(for id: String, reason: String) throws -> Secret {
        try lock.critical {
            let entry = try liveEntry(id)
            guard let reference = entry.record.credentialReference else { throw ConnectionError.notUsable(id, entry.state) }
            return try storeError { try store.reveal(reference, reason: reason) }
        }
    }

    public func protectedHeaders(for id: String) throws -> [String: Secret] {
        try lock.critical {
            let record = try liveEntry(id).record
            var headers: [String: Secret] = [:]
            for name in record.protectedHeaderNames {
                headers[name] = try storeError { try store.read(try record.headerReference(name)) }
            }
            return headers
        }
    }

    public func record(for id: String) throws -> ConnectionRecord {
        try lock.critical { try liveEntry(id).record }
    }

    public func records() throws -> [ConnectionRecord] {
        try lock.critical { try loadAll().filter { !$0.isTombstone }.map(\.record) }
    }

    public func status(of id: String) throws -> ConnectionStatus {
        try lock.critical {
            guard let entry = try loadEntry(id), !entry.isTombstone else {
                let tombstone = try loadEntry(id)
                return ConnectionStatus(connectionID: id, state: tombstone == nil ? .notConfigured : .deleted,
                                        health: RequestHealth(), display: .notConfigured, protectedHeaderNames: [],
                                        pendingCleanup: tombstone?.pendingDeletion ?? [], credentialMissing: false)
            }
            var display = CredentialDisplay.notConfigured
            var missing = false
            if let reference = entry.record.credentialReference {
                do {
                    display = try store.read(reference).maskedHint
                } catch CredentialStoreError.notFound {
                    missing = true
                } catch {
                    throw wrap(error)
                }
            }
            return ConnectionStatus(connectionID: id, state: entry.record.credentialReference == nil ? .notConfigured : entry.state,
                                    health: entry.health, display: display,
                                    protectedHeaderNames: entry.record.protectedHeaderNames,
                                    pendingCleanup: entry.pendingDeletion, credentialMissing: missing)
        }
    }

    // MARK: Lifecycle

    /// Records the outcome of a request or key check. A failure (even a
    /// 401) only updates `RequestHealth`; it never marks the key revoked.
    public func recordCheck(_ outcome: CheckOutcome, for id: String) throws {
        try lock.critical {
            var entry = try liveEntry(id)
            entry.health.record(outcome, at: now())
            entry.state = entry.state.afterCheck(outcome)
            try saveEntry(entry)
        }
    }

    /// An authoritative verdict (the provider said the key was revoked, or
    /// the user confirmed it). Only explicit calls set these states.
    public func markRevoked(_ id: String) throws {
        try setState(.revoked, for: id)
    }

    public func markInvalid(_ id: String) throws {
        try setState(.invalid, for: id)
    }

    private func setState(_ state: CredentialState, for id: String) throws {
        try lock.critical {
            var entry = try liveEntry(id)
            entry.state = state
            try saveEntry(entry)
        }
    }
}
