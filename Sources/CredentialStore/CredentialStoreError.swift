import Foundation

/// The status a backend reported, kept so a failure can be diagnosed without
/// ever carrying the value being stored or read.
public struct BackendStatus: Equatable, Sendable, CustomStringConvertible {
    public enum Backend: String, Sendable {
        case keychain
        case secretService = "secret-service"
        case memory
    }

    public let backend: Backend
    /// `OSStatus` for the Keychain, `GError.code` for libsecret.
    public let code: Int
    /// GError domain (e.g. `secret-error`); nil for the Keychain.
    public let domain: String?
    /// The backend's own message, already scrubbed of the value in flight.
    public let message: String?

    public init(backend: Backend, code: Int, domain: String? = nil, message: String? = nil) {
        self.backend = backend
        self.code = code
        self.domain = domain
        self.message = message
    }

    public var description: String {
        var text = "\(backend.rawValue) status \(code)"
        if let domain { text += " (\(domain))" }
        if let message, !message.isEmpty { text += ": \(message)" }
        return text
    }
}

/// Which store operation failed.
public enum CredentialOperation: String, Sendable {
    case save, read, replace, delete, deleteAll = "delete-all", list, reveal
}

/// Errors from credential stores. Cases carry references, operations and
/// backend status codes only; no case has room for a secret.
public enum CredentialStoreError: Error, Equatable, Sendable {
    case notFound(CredentialReference)
    case invalidReference(reason: String)
    /// No Secret Service / D-Bus session reachable, or the Keychain is not available.
    case serviceUnavailable(CredentialOperation, BackendStatus)
    /// The store is locked and the call may not prompt (errSecInteractionNotAllowed, locked collection).
    case locked(CredentialOperation, BackendStatus)
    /// errSecMissingEntitlement: the app is not signed for this keychain access.
    case missingEntitlement(CredentialOperation, BackendStatus)
    /// The user declined (or could not perform) the presence check required to reveal a value.
    case userPresenceRequired(BackendStatus?)
    /// The item exists but its data is not valid text.
    case unexpectedData(CredentialReference)
    /// Every other backend failure; never reported as success.
    case backendFailure(CredentialOperation, BackendStatus)

    public var backendStatus: BackendStatus? {
        switch self {
        case .notFound, .invalidReference, .unexpectedData: return nil
        case .userPresenceRequired(let status): return status
        case .serviceUnavailable(_, let status), .locked(_, let status),
             .missingEntitlement(_, let status), .backendFailure(_, let status):
            return status
        }
    }
}

extension CredentialStoreError: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        switch self {
        case .notFound(let reference):
            return "no credential stored for \(reference)"
        case .invalidReference(let reason):
            return "invalid credential reference: \(reason)"
        case .serviceUnavailable(let operation, let status):
            return "\(operation.rawValue) failed: secret store unavailable (\(status))"
        case .locked(let operation, let status):
            return "\(operation.rawValue) failed: secret store is locked (\(status))"
        case .missingEntitlement(let operation, let status):
            return "\(operation.rawValue) failed: missing keychain entitlement (\(status))"
        case .userPresenceRequired(let status):
            return "reveal refused: user presence was not confirmed" + (status.map { " (\($0))" } ?? "")
        case .unexpectedData(let reference):
            return "stored data for \(reference) is not valid text"
        case .backendFailure(let operation, let status):
            return "\(operation.rawValue) failed: \(status)"
        }
    }

    public var debugDescription: String { "CredentialStoreError(\(description))" }
}

extension CredentialStoreError: LocalizedError {
    public var errorDescription: String? { description }
}
