import Foundation

/// What the app persists about a connection: the record plus lifecycle,
/// health and any cleanup still owed to the credential store. Holds
/// references only, so it is as safe to serialise as the record.
public struct ConnectionEntry: Codable, Equatable, Sendable {
    public var record: ConnectionRecord
    public var state: CredentialState
    public var health: RequestHealth
    /// Items that must be removed from the credential store (old key after a
    /// rotation, items of a deleted connection) but were not yet.
    public var pendingDeletion: [CredentialReference]

    public init(record: ConnectionRecord, state: CredentialState, health: RequestHealth = RequestHealth(),
                pendingDeletion: [CredentialReference] = []) {
        self.record = record
        self.state = state
        self.health = health
        self.pendingDeletion = pendingDeletion
    }

    /// A tombstone: the connection is gone for the user, only cleanup remains.
    public var isTombstone: Bool { state == .deleted }
}
