#if canImport(CLibSecret)
import CLibSecret
import Foundation

/// Credentials in the freedesktop Secret Service (gnome-keyring, KWallet,
/// KeePassXC) through libsecret.
///
/// Items use a schema of their own and carry four attributes: `app` (which
/// app owns the item), `connection`, `kind` and `reference`. Every query
/// includes the schema name and `app`, so `deleteAll` can never reach items
/// of another app or another schema.
public final class SecretServiceCredentialStore: CredentialStore, @unchecked Sendable {
    public static let defaultSchemaName = "dev.keyshape.Credential"
    public static let defaultAppID = "keyshape"

    public let appID: String
    public let schemaName: String
    /// Collection alias; nil means the user's default collection.
    public let collection: String?
    private let schema: UnsafeMutablePointer<SecretSchema>

    public init(appID: String = defaultAppID, schemaName: String = defaultSchemaName, collection: String? = nil) {
        self.appID = appID
        self.schemaName = schemaName
        self.collection = collection
        // secret_schema_new copies the name; the schema is reference counted.
        schema = keyshape_schema_new(schemaName)
    }

    deinit {
        secret_schema_unref(schema)
    }

    public func save(_ secret: Secret, for reference: CredentialReference) throws {
        let label = "\(appID) credential \(reference)"
        var error: UnsafeMutablePointer<GError>?
        // Secret Service replaces an item with identical attributes, which
        // gives `save` its overwrite semantics without a lookup first.
        let stored = withAttributes(for: reference) { attributes in
            secret.withRevealedValue { value in
                secret_password_storev_sync(schema, attributes, collection, label, value, nil, &error)
            }
        }
        if let status = consume(&error, scrubbing: secret) {
            throw Self.error(for: .save, status: status)
        }
        guard stored != 0 else {
            throw CredentialStoreError.backendFailure(.save, BackendStatus(backend: .secretService, code: -1,
                                                                          message: "store returned FALSE without an error"))
        }
    }

    public func read(_ reference: CredentialReference) throws -> Secret {
        var error: UnsafeMutablePointer<GError>?
        let password = withAttributes(for: reference) { attributes in
            secret_password_lookupv_sync(schema, attributes, nil, &error)
        }
        if let status = consume(&error, scrubbing: nil) {
            if let password { secret_password_free(password) }
            throw Self.error(for: .read, status: status)
        }
        guard let password else { throw CredentialStoreError.notFound(reference) }
        // secret_password_free wipes the C buffer before freeing it.
        defer { secret_password_free(password) }
        guard let secret = Secret(utf8: UnsafeBufferPointer(start: UnsafeRawPointer(password).assumingMemoryBound(to: UInt8.self),
                                                            count: strlen(password))) else {
            throw CredentialStoreError.unexpectedData(reference)
        }
        return secret
    }

    public func replace(_ secret: Secret, for reference: CredentialReference) throws {
        guard try search(attributes(for: reference)).contains(reference) else {
            throw CredentialStoreError.notFound(reference)
        }
        try save(secret, for: reference)
    }

    public func delete(_ reference: CredentialReference) throws {
        var error: UnsafeMutablePointer<GError>?
        // FALSE without an error means nothing matched: already deleted.
        _ = withAttributes(for: reference) { attributes in
            secret_password_clearv_sync(schema, attributes, nil, &error)
        }
        if let status = consume(&error, scrubbing: nil) {
            throw Self.error(for: .delete, status: status)
        }
    }

    public func deleteAll() throws {
        var error: UnsafeMutablePointer<GError>?
        // Clears every unlocked item matching schema + app.
        _ = withAttributes(["app": appID]) { attributes in
            secret_password_clearv_sync(schema, attributes, nil, &error)
        }
        if let status = consume(&error, scrubbing: nil) {
            throw Self.error(for: .deleteAll, status: status)
        }
        // Items in a locked collection are not cleared; report rather than
        // pretend everything is gone.
        let left = try listReferences()
        if !left.isEmpty {
            throw CredentialStoreError.locked(.deleteAll, BackendStatus(backend: .secretService, code: Int(SECRET_ERROR_IS_LOCKED.rawValue),
                                                                       domain: "secret-error",
                                                                       message: "\(left.count) item(s) could not be cleared"))
        }
    }

    public func listReferences() throws -> [CredentialReference] {
        try search(["app": appID]).sorted()
    }

    // MARK: libsecret plumbing

    private func attributes(for reference: CredentialReference) -> [String: String] {
        ["app": appID, "connection": reference.connectionID, "kind": reference.kind.rawValue, "reference": reference.rawValue]
    }

    private func withAttributes<T>(for reference: CredentialReference, _ body: (OpaquePointer?) -> T) -> T {
        withAttributes(attributes(for: reference), body)
    }

    /// Builds a GHashTable that owns copies of the strings and unrefs it
    /// when `body` returns.
    private func withAttributes<T>(_ values: [String: String], _ body: (OpaquePointer?) -> T) -> T {
        let table = keyshape_attributes_new()
        defer { g_hash_table_unref(table) }
        for (key, value) in values { keyshape_attributes_insert(table, key, value) }
        return body(table)
    }

    /// Lists references of matching items without loading their secrets.
    private func search(_ values: [String: String]) throws -> [CredentialReference] {
        var error: UnsafeMutablePointer<GError>?
        let list = withAttributes(values) { attributes in
            secret_password_searchv_sync(schema, attributes, SECRET_SEARCH_ALL, nil, &error)
        }
        defer { if let list { keyshape_retrievable_list_free(list) } }
        if let status = consume(&error, scrubbing: nil) {
            throw Self.error(for: .list, status: status)
        }
        var references: [CredentialReference] = []
        var node = list
        while let current = node {
            if let item = keyshape_list_item(current), let itemAttributes = secret_retrievable_get_attributes(item) {
                if let raw = keyshape_attributes_lookup(itemAttributes, "reference"),
                   let reference = CredentialReference(rawValue: String(cString: raw)) {
                    references.append(reference)
                }
                g_hash_table_unref(itemAttributes)
            }
            node = current.pointee.next
        }
        return references
    }

    /// Takes ownership of a GError (frees it and resets the pointer) and
    /// returns its status. The message is scrubbed of the value in flight in
    /// case a service ever echoes it.
    private func consume(_ error: inout UnsafeMutablePointer<GError>?, scrubbing secret: Secret?) -> BackendStatus? {
        guard let pointer = error else { return nil }
        defer {
            g_error_free(pointer)
            error = nil
        }
        let domain = keyshape_error_domain(pointer).map { String(cString: $0) }
        var message = pointer.pointee.message.map { String(cString: $0) }
        if let secret, let text = message, secret.occurs(in: text) {
            message = secret.withRevealedValue { text.replacingOccurrences(of: $0, with: Secret.redactedPlaceholder) }
        }
        return BackendStatus(backend: .secretService, code: Int(pointer.pointee.code), domain: domain, message: message)
    }

    private static func error(for operation: CredentialOperation, status: BackendStatus) -> CredentialStoreError {
        switch status.domain {
        case "secret-error" where status.code == Int(SECRET_ERROR_IS_LOCKED.rawValue):
            return .locked(operation, status)
        case "g-dbus-error-quark", "g-io-error-quark", "g-spawn-error-quark":
            // No session bus, no Secret Service on it, or the call could not
            // be delivered: the store is unreachable rather than failing.
            return .serviceUnavailable(operation, status)
        default:
            return .backendFailure(operation, status)
        }
    }
}

extension SecretServiceCredentialStore: CustomStringConvertible {
    public var description: String { "SecretServiceCredentialStore(app: \(appID), schema: \(schemaName))" }
}
#endif
