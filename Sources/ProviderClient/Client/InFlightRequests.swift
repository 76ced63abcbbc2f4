import Foundation

/// Running requests by connection, so deleting a connection can cancel what it has in
/// flight (`ConnectionHooks.cancelPendingWork`) and a deleted key is not sent once more.
final class InFlightRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [UUID: (connectionID: String, cancel: @Sendable () -> Void)] = [:]

    func add(_ connectionID: String, cancel: @escaping @Sendable () -> Void) -> UUID {
        let token = UUID()
        lock.lock(); defer { lock.unlock() }
        running[token] = (connectionID, cancel)
        return token
    }

    func remove(_ token: UUID) {
        lock.lock(); defer { lock.unlock() }
        running.removeValue(forKey: token)
    }

    func cancel(connectionID: String) {
        lock.lock()
        let matching = running.values.filter { $0.connectionID == connectionID }.map(\.cancel)
        lock.unlock()
        matching.forEach { $0() }
    }

    func cancelAll() {
        lock.lock()
        let all = running.values.map(\.cancel)
        lock.unlock()
        all.forEach { $0() }
    }
}
