import Foundation

extension ConnectionManager {
    /// Replaces the key: store the new one under a new reference, switch the
    /// record to it, then delete the old item.
    ///
    /// Whatever step fails, the record references exactly one readable key:
    /// - storing fails: nothing changed, the old key stays in use;
    /// - switching fails: the new item is removed again (or, if that fails
    ///   too, reported as an orphan for `completePendingCleanup()`);
    /// - deleting the old item fails: the new key is in use and the old
    ///   reference is recorded as pending cleanup.
    public func rotate(_ id: String, newKey: Secret) throws -> RotationResult {
        try lock.critical {
            var entry = try liveEntry(id)
            guard let oldReference = entry.record.credentialReference else { throw ConnectionError.notUsable(id, entry.state) }
            try validate(entry.record, secrets: [newKey], key: newKey)

            let newReference = try storeError { try CredentialReference.apiKey(for: id) }
            do {
                try store.save(newKey, for: newReference)
            } catch {
                try? store.delete(newReference)
                throw ConnectionError.rotationFailed(step: .storeReplacement, inUse: oldReference, orphan: nil,
                                                     underlying: String(describing: error))
            }

            var switched = entry
            switched.record.credentialReference = newReference
            switched.state = .replaced
            switched.health = RequestHealth()
            switched.pendingDeletion.append(oldReference)
            do {
                try saveEntry(switched)
            } catch {
                var orphan: CredentialReference?
                do { try store.delete(newReference) } catch { orphan = newReference }
                throw ConnectionError.rotationFailed(step: .switchConnection, inUse: oldReference, orphan: orphan,
                                                     underlying: String(describing: error))
            }
            entry = switched

            do {
                try deleteWithRetry(oldReference)
            } catch {
                return .completedWithPendingCleanup(newReference: newReference, pending: oldReference,
                                                    failure: asStoreError(error, .delete))
            }
            entry.pendingDeletion.removeAll { $0 == oldReference }
            // The old item is gone either way; failing to record that only
            // leaves a harmless pending entry that cleanup will find absent.
            try? saveEntry(entry)
            return .completed(newReference: newReference)
        }
    }

    /// Deletes an item, retrying up to `deletionAttempts` times.
    func deleteWithRetry(_ reference: CredentialReference) throws {
        var lastError: Error?
        for _ in 0..<deletionAttempts {
            do {
                try store.delete(reference)
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CredentialStoreError.notFound(reference)
    }
}
