@testable import CredentialStore
import Foundation

/// Behaves like the Keychain for generic passwords: items are unique by
/// class + service + account + synchronizable, `add` of an existing item is
/// `errSecDuplicateItem`, `update` changes only the attributes it is given,
/// queries without `kSecAttrSynchronizable` match only non-synced items,
/// `kSecAttrSynchronizableAny` matches both. Failure modes are switchable.
final class FakeKeychain: KeychainAPI, @unchecked Sendable {
    struct Item: Equatable {
        var attributes: [KeychainAttribute: KeychainValue]
        var data: Data
    }

    enum Call: Equatable {
        case add(KeychainQuery)
        case update(KeychainQuery, KeychainQuery)
        case copyMatching(KeychainQuery)
        case delete(KeychainQuery)
    }

    private let lock = NSLock()
    private(set) var items: [Item] = []
    private(set) var calls: [Call] = []
    /// Every call returns this status (e.g. errSecMissingEntitlement for an unsigned app).
    var forcedStatus: Int32?
    /// Only `update` returns this status.
    var updateStatus: Int32?
    /// Reads fail with errSecInteractionNotAllowed, as when the device is locked.
    var locked = false

    static let identity: [KeychainAttribute] = [.secClass, .service, .account]
    static let itemAttributes: [KeychainAttribute] = [.secClass, .service, .account, .label, .accessible, .synchronizable, .accessGroup]

    func seed(service: String, account: String, data: Data) {
        lock.critical {
            items.append(Item(attributes: [.secClass: .constant(.classGenericPassword), .service: .string(service),
                                           .account: .string(account), .accessible: .constant(.accessibleWhenUnlockedThisDeviceOnly)],
                              data: data))
        }
    }

    func add(_ query: KeychainQuery) -> Int32 {
        lock.critical {
            calls.append(.add(query))
            if let forcedStatus { return forcedStatus }
            if locked { return KeychainStatus.interactionNotAllowed }
            guard case .data(let data)? = query[.valueData], query[.secClass] != nil else { return KeychainStatus.param }
            if items.contains(where: { sameItem($0, query) }) { return KeychainStatus.duplicateItem }
            var attributes: [KeychainAttribute: KeychainValue] = [:]
            for key in Self.itemAttributes { attributes[key] = query[key] }
            // The real keychain stores a default accessibility when none is given.
            if attributes[.accessible] == nil { attributes[.accessible] = .constant(.accessibleWhenUnlocked) }
            items.append(Item(attributes: attributes, data: data))
            return KeychainStatus.success
        }
    }

    func update(_ query: KeychainQuery, attributesToUpdate: KeychainQuery) -> Int32 {
        lock.critical {
            calls.append(.update(query, attributesToUpdate))
            if let forcedStatus { return forcedStatus }
            if let updateStatus { return updateStatus }
            let indices = items.indices.filter { matches(items[$0], query) }
            guard !indices.isEmpty else { return KeychainStatus.itemNotFound }
            for index in indices {
                for (key, value) in attributesToUpdate.entries {
                    if key == .valueData, case .data(let data) = value { items[index].data = data } else { items[index].attributes[key] = value }
                }
            }
            return KeychainStatus.success
        }
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, match: KeychainMatch) {
        lock.critical {
            calls.append(.copyMatching(query))
            if let forcedStatus { return (forcedStatus, .none) }
            if locked && query[.returnData] != nil { return (KeychainStatus.interactionNotAllowed, .none) }
            let found = items.filter { matches($0, query) }
            guard let first = found.first else { return (KeychainStatus.itemNotFound, .none) }
            if query[.returnData] == .bool(true) { return (KeychainStatus.success, .data(first.data)) }
            let limitAll = query[.matchLimit] == .constant(.matchLimitAll)
            let attributes = (limitAll ? found : [first]).map {
                KeychainItemAttributes(service: $0.string(.service), account: $0.string(.account))
            }
            return (KeychainStatus.success, .items(attributes))
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        lock.critical {
            calls.append(.delete(query))
            if let forcedStatus { return forcedStatus }
            let before = items.count
            items.removeAll { matches($0, query) }
            return items.count == before ? KeychainStatus.itemNotFound : KeychainStatus.success
        }
    }

    // MARK: Matching

    private func matches(_ item: Item, _ query: KeychainQuery) -> Bool {
        for key in [KeychainAttribute.secClass, .service, .account, .accessGroup] {
            if let wanted = query[key], item.attributes[key] != wanted { return false }
        }
        switch query[.synchronizable] {
        case .constant(.synchronizableAny)?: return true
        case .bool(true)?: return item.attributes[.synchronizable] == .bool(true)
        default: return item.attributes[.synchronizable] != .bool(true)
        }
    }

    private func sameItem(_ item: Item, _ query: KeychainQuery) -> Bool {
        Self.identity.allSatisfy { item.attributes[$0] == query[$0] }
            && (item.attributes[.synchronizable] == .bool(true)) == (query[.synchronizable] == .bool(true))
    }

    var adds: [KeychainQuery] {
        lock.critical { calls.compactMap { if case .add(let query) = $0 { return query } else { return nil } } }
    }

    var updates: [(KeychainQuery, KeychainQuery)] {
        lock.critical { calls.compactMap { if case .update(let query, let attributes) = $0 { return (query, attributes) } else { return nil } } }
    }

    var allQueries: [KeychainQuery] {
        lock.critical {
            calls.flatMap { call -> [KeychainQuery] in
                switch call {
                case .add(let query), .copyMatching(let query), .delete(let query): return [query]
                case .update(let query, let attributes): return [query, attributes]
                }
            }
        }
    }
}

extension FakeKeychain.Item {
    func string(_ key: KeychainAttribute) -> String? {
        if case .string(let text)? = attributes[key] { return text }
        return nil
    }
}

/// Counts presence checks and answers as configured.
final class FakePresenceVerifier: UserPresenceVerifier, @unchecked Sendable {
    var allow: Bool
    private(set) var checks = 0

    init(allow: Bool) {
        self.allow = allow
    }

    func verifyUserPresence(reason: String) throws {
        checks += 1
        if !allow { throw CredentialStoreError.userPresenceRequired(BackendStatus(backend: .keychain, code: -128)) }
    }
}
