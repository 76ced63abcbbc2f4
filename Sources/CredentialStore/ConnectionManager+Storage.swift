import Foundation

// Repository access and validation shared by the manager's operations.
extension ConnectionManager {
    func loadEntry(_ id: String) throws -> ConnectionEntry? {
        do { return try repository.entry(for: id) } catch { throw ConnectionError.repository(String(describing: error)) }
    }

    func loadAll() throws -> [ConnectionEntry] {
        do { return try repository.allEntries() } catch { throw ConnectionError.repository(String(describing: error)) }
    }

    func saveEntry(_ entry: ConnectionEntry) throws {
        do { try repository.save(entry) } catch { throw ConnectionError.repository(String(describing: error)) }
    }

    func removeEntry(_ id: String) throws {
        do { try repository.remove(id: id) } catch { throw ConnectionError.repository(String(describing: error)) }
    }

    func liveEntry(_ id: String) throws -> ConnectionEntry {
        guard let entry = try loadEntry(id), !entry.isTombstone else { throw ConnectionError.unknownConnection(id) }
        return entry
    }

    func storeError<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw wrap(error) }
    }

    func wrap(_ error: Error) -> Error {
        if let error = error as? CredentialStoreError { return ConnectionError.store(error) }
        return error
    }

    /// Rejects a record that would carry a secret: the record type has no
    /// secret field, but free-text fields could still receive a paste.
    func validate(_ record: ConnectionRecord, secrets: [Secret], key: Secret?) throws {
        if let key, case .rejected(let problem) = KeyFormatCheck.check(key, for: record.provider) {
            throw ConnectionError.formatRejected(record.provider, problem)
        }
        for name in record.protectedHeaderNames where !Self.isValidHeaderName(name) {
            throw ConnectionError.invalidHeaderName(name)
        }
        let components = URLComponents(url: record.baseURL, resolvingAgainstBaseURL: false)
        if components?.user != nil || components?.password != nil { throw ConnectionError.credentialsInURL }
        let fields: [(String, String)] = [("id", record.id), ("display name", record.displayName),
                                          ("base URL", record.baseURL.absoluteString),
                                          ("model preferences", ([record.modelPreferences.defaultModel ?? ""]
                                                                 + record.modelPreferences.preferredModels).joined(separator: "\n")),
                                          ("protected header names", record.protectedHeaderNames.joined(separator: "\n"))]
        // Very short values (a header flag like "1") occur in any text by
        // chance; only values long enough to be a real secret are looked for.
        let searchable = secrets.filter { $0.characterCount >= Self.minimumSearchableSecretLength }
        for (field, text) in fields where searchable.contains(where: { $0.occurs(in: text) }) {
            throw ConnectionError.secretInMetadata(field: field)
        }
    }

    static let minimumSearchableSecretLength = 8

    /// Header names double as reference components, so they use the
    /// reference alphabet (a subset of RFC 9110 tokens).
    static func isValidHeaderName(_ name: String) -> Bool {
        CredentialReference.isValidComponent(name)
    }
}
