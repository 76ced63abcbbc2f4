import Foundation

/// Generic-password items keyed by service (`configuration.service`) and
/// account (the reference's raw value).
///
/// All query building and `OSStatus` handling happens here, against the
/// `KeychainAPI` seam, so it is unit-tested on Linux with a fake keychain;
/// only `SecurityKeychainAPI` touches `Security`.
public final class KeychainCredentialStore: CredentialStore, @unchecked Sendable {
    public let configuration: KeychainConfiguration
    let api: KeychainAPI
    let presenceVerifier: UserPresenceVerifier

    public init(configuration: KeychainConfiguration = KeychainConfiguration(), api: KeychainAPI,
                presenceVerifier: UserPresenceVerifier = NoUserPresenceVerifier()) {
        self.configuration = configuration
        self.api = api
        self.presenceVerifier = presenceVerifier
    }

    public func save(_ secret: Secret, for reference: CredentialReference) throws {
        let data = secret.withRevealedValue { Data($0.utf8) }
        var query = itemQuery(for: reference)
        query[.accessible] = .constant(configuration.accessibility)
        query[.label] = .string("keyshape credential \(reference)")
        query[.valueData] = .data(data)
        let status = api.add(query)
        switch status {
        case KeychainStatus.success:
            return
        case KeychainStatus.duplicateItem:
            // Update the data only: the accessibility (and sync, group) of the
            // first save stays as it was chosen then.
            let updateStatus = api.update(itemQuery(for: reference), attributesToUpdate: KeychainQuery([.valueData: .data(data)]))
            guard updateStatus == KeychainStatus.success else { throw Self.error(.save, updateStatus) }
        default:
            throw Self.error(.save, status)
        }
    }

    public func read(_ reference: CredentialReference) throws -> Secret {
        var query = itemQuery(for: reference)
        query[.returnData] = .bool(true)
        query[.matchLimit] = .constant(.matchLimitOne)
        let (status, match) = api.copyMatching(query)
        switch status {
        case KeychainStatus.success:
            guard case .data(let data) = match, let secret = Secret(utf8: data) else {
                throw CredentialStoreError.unexpectedData(reference)
            }
            return secret
        case KeychainStatus.itemNotFound:
            throw CredentialStoreError.notFound(reference)
        default:
            throw Self.error(.read, status)
        }
    }

    public func replace(_ secret: Secret, for reference: CredentialReference) throws {
        let data = secret.withRevealedValue { Data($0.utf8) }
        let status = api.update(itemQuery(for: reference), attributesToUpdate: KeychainQuery([.valueData: .data(data)]))
        switch status {
        case KeychainStatus.success: return
        case KeychainStatus.itemNotFound: throw CredentialStoreError.notFound(reference)
        default: throw Self.error(.replace, status)
        }
    }

    public func delete(_ reference: CredentialReference) throws {
        let status = api.delete(itemQuery(for: reference))
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw Self.error(.delete, status)
        }
    }

    public func deleteAll() throws {
        let status = api.delete(ownedItemsQuery())
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw Self.error(.deleteAll, status)
        }
    }

    public func listReferences() throws -> [CredentialReference] {
        var query = ownedItemsQuery()
        query[.returnAttributes] = .bool(true)
        query[.matchLimit] = .constant(.matchLimitAll)
        let (status, match) = api.copyMatching(query)
        switch status {
        case KeychainStatus.success:
            guard case .items(let items) = match else { return [] }
            return items.compactMap { $0.account.flatMap(CredentialReference.init(rawValue:)) }.sorted()
        case KeychainStatus.itemNotFound:
            return []
        default:
            throw Self.error(.list, status)
        }
    }

    public func reveal(_ reference: CredentialReference, reason: String) throws -> Secret {
        if configuration.revealRequiresUserPresence {
            try presenceVerifier.verifyUserPresence(reason: reason)
        }
        return try read(reference)
    }

    // MARK: Queries

    /// Identifies one item. Synchronizable only when configured: a query
    /// without the key matches non-synchronizable items only.
    func itemQuery(for reference: CredentialReference) -> KeychainQuery {
        var query = commonQuery()
        query[.account] = .string(reference.rawValue)
        if configuration.synchronizable { query[.synchronizable] = .bool(true) }
        return query
    }

    /// Every item of this service, synced or not, so delete-all and listing
    /// also reach items saved under an earlier configuration.
    func ownedItemsQuery() -> KeychainQuery {
        var query = commonQuery()
        query[.synchronizable] = .constant(.synchronizableAny)
        return query
    }

    private func commonQuery() -> KeychainQuery {
        var query = KeychainQuery([.secClass: .constant(.classGenericPassword), .service: .string(configuration.service)])
        if let group = configuration.accessGroup { query[.accessGroup] = .string(group) }
        if configuration.useDataProtectionKeychain { query[.useDataProtectionKeychain] = .bool(true) }
        return query
    }

    static func error(_ operation: CredentialOperation, _ status: Int32) -> CredentialStoreError {
        let backendStatus = BackendStatus(backend: .keychain, code: Int(status))
        switch status {
        case KeychainStatus.missingEntitlement: return .missingEntitlement(operation, backendStatus)
        case KeychainStatus.interactionNotAllowed: return .locked(operation, backendStatus)
        case KeychainStatus.notAvailable: return .serviceUnavailable(operation, backendStatus)
        default: return .backendFailure(operation, backendStatus)
        }
    }
}

extension KeychainCredentialStore: CustomStringConvertible {
    public var description: String { "KeychainCredentialStore(service: \(configuration.service))" }
}
