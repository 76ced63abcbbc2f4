@testable import CredentialStore
import Foundation

/// Wraps a store and fails chosen operations, to inject a failure at each
/// step of rotation and deletion. Also records the order of operations.
final class FailingCredentialStore: CredentialStore, @unchecked Sendable {
    struct InjectedFailure {
        var operation: CredentialOperation
        /// Only calls for references matching this fail (nil: all).
        var matching: ((CredentialReference) -> Bool)?
        /// How many calls fail before the store recovers (nil: forever).
        var remaining: Int?
    }

    let base: CredentialStore
    private let lock = NSLock()
    private var failures: [InjectedFailure] = []
    private(set) var log: [String] = []

    static let injectedStatus = BackendStatus(backend: .memory, code: -99, message: "injected failure")

    init(_ base: CredentialStore = InMemoryCredentialStore()) {
        self.base = base
    }

    func fail(_ operation: CredentialOperation, times: Int? = nil, where matching: ((CredentialReference) -> Bool)? = nil) {
        lock.critical { failures.append(InjectedFailure(operation: operation, matching: matching, remaining: times)) }
    }

    func heal() {
        lock.critical { failures.removeAll() }
    }

    private func check(_ operation: CredentialOperation, _ reference: CredentialReference?) throws {
        try lock.critical {
            log.append("\(operation.rawValue) \(reference?.rawValue ?? "*")")
            guard let index = failures.firstIndex(where: { failure in
                failure.operation == operation && (failure.remaining ?? 1) > 0
                    && (reference.map { failure.matching?($0) ?? true } ?? true)
            }) else { return }
            if let remaining = failures[index].remaining { failures[index].remaining = remaining - 1 }
            throw CredentialStoreError.backendFailure(operation, Self.injectedStatus)
        }
    }

    func save(_ secret: Secret, for reference: CredentialReference) throws {
        try check(.save, reference)
        try base.save(secret, for: reference)
    }

    func read(_ reference: CredentialReference) throws -> Secret {
        try check(.read, reference)
        return try base.read(reference)
    }

    func replace(_ secret: Secret, for reference: CredentialReference) throws {
        try check(.replace, reference)
        try base.replace(secret, for: reference)
    }

    func delete(_ reference: CredentialReference) throws {
        try check(.delete, reference)
        try base.delete(reference)
    }

    func deleteAll() throws {
        try check(.deleteAll, nil)
        try base.deleteAll()
    }

    func listReferences() throws -> [CredentialReference] {
        try check(.list, nil)
        return try base.listReferences()
    }
}

/// A repository whose saves can be made to fail, for the "switch the
/// connection" step of rotation.
final class FailingConnectionRepository: ConnectionRepository, @unchecked Sendable {
    struct InjectedError: Error, CustomStringConvertible {
        var description: String { "injected repository failure" }
    }

    let base = InMemoryConnectionRepository()
    var failSaves = 0

    func entry(for id: String) throws -> ConnectionEntry? { try base.entry(for: id) }
    func allEntries() throws -> [ConnectionEntry] { try base.allEntries() }
    func remove(id: String) throws { try base.remove(id: id) }
    func removeAll() throws { try base.removeAll() }

    func save(_ entry: ConnectionEntry) throws {
        if failSaves > 0 {
            failSaves -= 1
            throw InjectedError()
        }
        try base.save(entry)
    }
}
