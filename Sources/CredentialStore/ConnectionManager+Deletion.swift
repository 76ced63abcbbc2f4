import Foundation

extension ConnectionManager {
    /// Deletes a connection: cancel pending work, delete the record (a
    /// tombstone listing what is still owed replaces it), delete the key and
    /// protected header items, clear cached auth state. Items that cannot be
    /// deleted stay listed in the tombstone and the report says so;
    /// `completePendingCleanup()` retries them.
    public func delete(_ id: String) throws -> DeletionReport {
        try lock.critical {
            guard let entry = try loadEntry(id) else {
                // No record, but a crash may have left items behind.
                let orphans = try storeError { try store.listReferences(for: id) }
                guard !orphans.isEmpty else { throw ConnectionError.unknownConnection(id) }
                return try deleteItems(orphans, tombstone: nil, connectionID: id)
            }
            hooks.cancelPendingWork(id)

            var owed = Set(entry.pendingDeletion)
            if let reference = entry.record.credentialReference { owed.insert(reference) }
            owed.formUnion((try? entry.record.headerReferences()) ?? [])
            // Items from interrupted rotations are found by listing.
            if let listed = try? store.listReferences(for: id) { owed.formUnion(listed) }

            var tombstone = entry
            tombstone.state = .deleted
            tombstone.pendingDeletion = owed.sorted()
            try saveEntry(tombstone)

            let report = try deleteItems(tombstone.pendingDeletion, tombstone: tombstone, connectionID: id)
            hooks.clearCachedAuthState(id)
            return report
        }
    }

    /// Deletes every item this app owns from the secret store and every
    /// record, including items no record points to any more.
    public func deleteAll() throws -> DeletionReport {
        try lock.critical {
            let entries = try loadAll()
            let ids = entries.map(\.record.id)
            ids.forEach(hooks.cancelPendingWork)

            let known = (try? store.listReferences()) ?? []
            for var entry in entries {
                entry.state = .deleted
                var owed = Set(entry.pendingDeletion).union(known.filter { $0.connectionID == entry.record.id })
                if let reference = entry.record.credentialReference { owed.insert(reference) }
                entry.pendingDeletion = owed.sorted()
                try saveEntry(entry)
            }

            var failure: CredentialStoreError?
            for _ in 0..<deletionAttempts {
                do {
                    try store.deleteAll()
                    failure = nil
                    break
                } catch {
                    failure = asStoreError(error, .deleteAll)
                }
            }
            let remaining = (try? store.listReferences()) ?? (failure == nil ? [] : known)
            if failure == nil && remaining.isEmpty {
                do { try repository.removeAll() } catch { throw ConnectionError.repository(String(describing: error)) }
            }
            ids.forEach(hooks.clearCachedAuthState)
            return DeletionReport(connectionIDs: ids, deleted: failure == nil ? known : [],
                                  remaining: remaining, failures: failure.map { [$0] } ?? [])
        }
    }

    /// Retries everything still owed: pending items of live connections,
    /// tombstones, and orphans (items whose connection has no record, or
    /// old API-key generations no record points to).
    public func completePendingCleanup() throws -> DeletionReport {
        try lock.critical {
            let entries = try loadAll()
            var report = DeletionReport(connectionIDs: [], deleted: [], remaining: [], failures: [])
            let listed = try storeError { try store.listReferences() }
            let live = Dictionary(entries.filter { !$0.isTombstone }.map { ($0.record.id, $0) }, uniquingKeysWith: { a, _ in a })

            var handled = Set<CredentialReference>()
            for entry in entries {
                var owed = Set(entry.pendingDeletion)
                if entry.isTombstone { owed.formUnion(listed.filter { $0.connectionID == entry.record.id }) }
                guard !owed.isEmpty || entry.isTombstone else { continue }
                let part = try deleteItems(owed.sorted(), tombstone: entry, connectionID: entry.record.id)
                report.merge(part)
                handled.formUnion(owed)
            }
            // Orphans: listed items nothing refers to.
            let orphans = listed.filter { reference in
                guard !handled.contains(reference) else { return false }
                guard let entry = live[reference.connectionID] else {
                    return !entries.contains { $0.record.id == reference.connectionID }
                }
                switch reference.kind {
                case .apiKey: return reference != entry.record.credentialReference
                case .header: return !entry.record.protectedHeaderNames.contains(reference.name)
                }
            }
            for reference in orphans {
                delete(reference, into: &report)
                if !report.connectionIDs.contains(reference.connectionID) { report.connectionIDs.append(reference.connectionID) }
            }
            return report
        }
    }

    /// Deletes `references`; updates or removes the tombstone/entry so that
    /// whatever is left is recorded, never silently forgotten.
    func deleteItems(_ references: [CredentialReference], tombstone: ConnectionEntry?, connectionID: String) throws -> DeletionReport {
        var report = DeletionReport(connectionIDs: [connectionID], deleted: [], remaining: [], failures: [])
        for reference in references { delete(reference, into: &report) }
        if var entry = tombstone {
            if entry.isTombstone && report.remaining.isEmpty {
                try removeEntry(connectionID)
            } else {
                entry.pendingDeletion = report.remaining
                try saveEntry(entry)
            }
        }
        return report
    }

    /// Deletes one item, recording it as deleted, or as remaining with the failure.
    private func delete(_ reference: CredentialReference, into report: inout DeletionReport) {
        do {
            try deleteWithRetry(reference)
            report.deleted.append(reference)
        } catch {
            report.remaining.append(reference)
            report.failures.append(asStoreError(error, .delete))
        }
    }

    func asStoreError(_ error: Error, _ operation: CredentialOperation) -> CredentialStoreError {
        (error as? CredentialStoreError) ?? .backendFailure(operation, BackendStatus(backend: .memory, code: -1,
                                                                                     message: String(describing: type(of: error))))
    }
}

extension DeletionReport {
    mutating func merge(_ other: DeletionReport) {
        for id in other.connectionIDs where !connectionIDs.contains(id) { connectionIDs.append(id) }
        deleted += other.deleted
        remaining += other.remaining
        failures += other.failures
    }
}
