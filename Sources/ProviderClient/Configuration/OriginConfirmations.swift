import Foundation

/// Which origins the user has confirmed for which connection. Credentials of a connection
/// go only to its confirmed origins (or a provider's well-known API host).
///
/// Confirmations are deliberately not part of backups: a restored or imported archive
/// could otherwise pre-approve a host the user never saw.
public final class OriginConfirmations: @unchecked Sendable {
    public struct Confirmation: Codable, Hashable, Sendable {
        public var connectionID: String
        public var origin: Origin
    }

    private let lock = NSLock()
    private var confirmed: Set<Confirmation>

    public init(_ confirmations: [Confirmation] = []) {
        confirmed = Set(confirmations)
    }

    /// Records the user's explicit yes for exactly this scheme, host and port.
    public func confirm(_ origin: Origin, for connectionID: String) {
        lock.lock(); defer { lock.unlock() }
        confirmed.insert(Confirmation(connectionID: connectionID, origin: origin))
    }

    public func revoke(_ origin: Origin, for connectionID: String) {
        lock.lock(); defer { lock.unlock() }
        confirmed.remove(Confirmation(connectionID: connectionID, origin: origin))
    }

    public func revokeAll(for connectionID: String) {
        lock.lock(); defer { lock.unlock() }
        confirmed = confirmed.filter { $0.connectionID != connectionID }
    }

    public func isConfirmed(_ origin: Origin, for connectionID: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return confirmed.contains(Confirmation(connectionID: connectionID, origin: origin))
    }

    /// Whether credentials of `connectionID` may be sent to `origin`.
    public func allowsCredentials(to origin: Origin, for connectionID: String) -> Bool {
        Origin.wellKnown.contains(origin) || isConfirmed(origin, for: connectionID)
    }

    /// For the app to persist (the values hold no secrets).
    public var snapshot: [Confirmation] {
        lock.lock(); defer { lock.unlock() }
        return confirmed.sorted { ($0.connectionID, $0.origin.description) < ($1.connectionID, $1.origin.description) }
    }
}
