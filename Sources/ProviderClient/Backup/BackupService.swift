import CredentialStore
import Foundation

/// Whether a connection can send requests.
public enum ConnectionReadiness: Equatable, Sendable, CustomStringConvertible {
    case ready
    /// No key stored: a restored connection, or one whose key was never entered.
    case credentialRequired
    /// A key exists but its state forbids sending (revoked, invalid).
    case unusable(CredentialState)

    public var description: String {
        switch self {
        case .ready: return "ready"
        case .credentialRequired: return "credential required"
        case .unusable(let state): return "credential \(state.rawValue)"
        }
    }
}

/// What a restore did.
public struct RestoreReport: Equatable, Sendable {
    /// Connections imported; each needs its credential entered again.
    public var restored: [String] = []
    /// Ids that already exist here; left untouched.
    public var skipped: [String] = []
    /// Connections whose archive entry had a non-null `credential`, which was ignored.
    public var ignoredCredentials: [String] = []
    public var conversations: [Conversation] = []
    public var profiles: [ConnectionProfile] = []
}

/// Export and restore. Export reads records (references only) and never the store;
/// restore writes records with no credential and never writes the store.
public struct BackupService: Sendable {
    public let manager: ConnectionManager
    public let logger: ClientLogger

    public init(manager: ConnectionManager, logger: ClientLogger) {
        self.manager = manager
        self.logger = logger
    }

    /// Builds the archive. Message text is run through the redactor as well: users paste
    /// keys into chats, and a backup file travels further than the chat did.
    public func export(conversations: [Conversation], profiles: [ConnectionProfile]) throws -> BackupArchive {
        let byID = Dictionary(profiles.map { ($0.connectionID, $0) }, uniquingKeysWith: { first, _ in first })
        let connections = try manager.records().map { ConnectionBackup(record: $0, profile: byID[$0.id]) }
        let scrubbed = conversations.map { conversation -> Conversation in
            var copy = conversation
            copy.title = logger.redactor.scrub(copy.title)
            copy.messages = copy.messages.map { ChatMessage(role: $0.role, content: logger.redactor.scrub($0.content)) }
            return copy
        }
        logger.log(.info, .backup, "exported \(connections.count) connection(s) and \(conversations.count) conversation(s)")
        return BackupArchive(connections: connections, conversations: scrubbed)
    }

    /// Imports connections as "credential required" and hands back conversations and
    /// profiles for the app to store. Nothing from the archive reaches the secret store.
    public func restore(_ archive: BackupArchive) throws -> RestoreReport {
        var report = RestoreReport()
        for connection in archive.connections {
            if connection.archiveCarriedCredential { report.ignoredCredentials.append(connection.id) }
            if try manager.repository.entry(for: connection.id) != nil {
                report.skipped.append(connection.id)
                continue
            }
            try manager.repository.save(ConnectionEntry(record: connection.restoredRecord, state: .notConfigured))
            report.restored.append(connection.id)
            if let profile = connection.profile { report.profiles.append(profile) }
        }
        report.conversations = archive.conversations
        logger.log(.info, .backup, "restored \(report.restored.count) connection(s); each needs its credential entered again",
                   fields: ["skipped": String(report.skipped.count), "ignoredCredentials": String(report.ignoredCredentials.count)])
        return report
    }

    public func readiness(of connectionID: String) throws -> ConnectionReadiness {
        let status = try manager.status(of: connectionID)
        if status.credentialMissing || status.state == .notConfigured { return .credentialRequired }
        return status.state.isUsable ? .ready : .unusable(status.state)
    }

    /// Gives a restored connection its key (and protected header values) again.
    /// `ConnectionManager` only stores keys for new connections, so the placeholder entry
    /// is replaced through `configure`, which validates like any first setup; if that
    /// fails the placeholder is put back and the connection stays "credential required".
    public func provideCredential(_ key: Secret, protectedHeaders: [String: Secret] = [:], for connectionID: String) throws {
        guard let placeholder = try manager.repository.entry(for: connectionID), !placeholder.isTombstone,
              placeholder.record.credentialReference == nil else {
            throw RequestRefusal.invalidConfiguration("connection \(connectionID) is not waiting for a credential")
        }
        try manager.repository.remove(id: connectionID)
        do {
            try manager.configure(placeholder.record, apiKey: key, protectedHeaders: protectedHeaders)
        } catch {
            try? manager.repository.save(placeholder)
            throw error
        }
    }
}
