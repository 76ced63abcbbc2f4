/// A place that holds secrets for one app, keyed by `CredentialReference`.
///
/// Implementations must surface every backend failure as a thrown
/// `CredentialStoreError` (never report "stored" when it was not) and must
/// never put a value into an error, a log line or a description.
public protocol CredentialStore: AnyObject, Sendable {
    /// Stores `secret`, overwriting any existing value for the reference.
    func save(_ secret: Secret, for reference: CredentialReference) throws

    /// Returns the value; throws `.notFound` when there is none.
    func read(_ reference: CredentialReference) throws -> Secret

    /// Overwrites an existing value; throws `.notFound` when there is none,
    /// so a replace can never silently create an item nobody references.
    func replace(_ secret: Secret, for reference: CredentialReference) throws

    /// Removes the item. Deleting a missing item succeeds: deletion is
    /// retried after partial failures and must be idempotent.
    func delete(_ reference: CredentialReference) throws

    /// Removes every item this app owns in the store, and nothing else.
    func deleteAll() throws

    /// References of every item this app owns, without loading any value.
    func listReferences() throws -> [CredentialReference]

    /// Explicit reveal for display or export; backends may demand user
    /// presence here while routine `read`s stay silent.
    func reveal(_ reference: CredentialReference, reason: String) throws -> Secret
}

extension CredentialStore {
    public func reveal(_ reference: CredentialReference, reason: String) throws -> Secret {
        try read(reference)
    }

    /// References owned by one connection, including orphans left by an
    /// interrupted rotation or deletion.
    public func listReferences(for connectionID: String) throws -> [CredentialReference] {
        try listReferences().filter { $0.connectionID == connectionID }
    }
}
