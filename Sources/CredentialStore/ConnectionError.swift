/// Errors from `ConnectionManager`. Like `CredentialStoreError` they carry
/// ids, references, reasons and underlying store errors — never a value.
public enum ConnectionError: Error, Equatable, Sendable {
    public enum RotationStep: String, Sendable {
        case storeReplacement = "store the replacement"
        case switchConnection = "switch the connection"
    }

    case unknownConnection(String)
    case alreadyExists(String)
    case invalidConnectionID(String)
    case invalidHeaderName(String)
    case formatRejected(ProviderKind, KeyFormatCheck.Problem)
    /// A metadata field contains the key or a header value.
    case secretInMetadata(field: String)
    /// The base URL carries a user or password component.
    case credentialsInURL
    case notUsable(String, CredentialState)
    case store(CredentialStoreError)
    /// The metadata repository failed; its message never contains secrets
    /// because the repository only ever sees records.
    case repository(String)
    /// A rotation stopped at `step`; the connection still uses `inUse`.
    /// `orphan` is set when the half-written replacement could not be removed
    /// (`completePendingCleanup()` will remove it).
    case rotationFailed(step: RotationStep, inUse: CredentialReference, orphan: CredentialReference?, underlying: String)
    /// Cleanup of an earlier deletion is still owed; retry it first.
    case pendingCleanup(String)
}

extension ConnectionError: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        switch self {
        case .unknownConnection(let id): return "no connection named \(id)"
        case .alreadyExists(let id): return "connection \(id) already exists; rotate its key instead"
        case .invalidConnectionID(let id): return "invalid connection id \(id.debugDescription): use 1-128 of A-Z a-z 0-9 . _ -"
        case .invalidHeaderName(let name): return "invalid protected header name \(name.debugDescription)"
        case .formatRejected(let provider, let problem): return "key rejected for \(provider): \(problem)"
        case .secretInMetadata(let field): return "the \(field) field contains a secret; secrets belong in the credential store only"
        case .credentialsInURL: return "the base URL must not contain a user name or password"
        case .notUsable(let id, let state): return "the credential of \(id) is \(state.rawValue)"
        case .store(let error): return error.description
        case .repository(let message): return "connection metadata: \(message)"
        case .rotationFailed(let step, let inUse, let orphan, let underlying):
            var text = "rotation failed while trying to \(step.rawValue) (\(underlying)); the connection still uses \(inUse)"
            if let orphan { text += "; \(orphan) is left over and will be removed by cleanup" }
            return text
        case .pendingCleanup(let id): return "connection \(id) still has cleanup pending from a deletion; retry cleanup first"
        }
    }

    public var debugDescription: String { "ConnectionError(\(description))" }
}

/// Result of a deletion. Not `@discardableResult`: an incomplete deletion
/// must be looked at, not dropped.
public struct DeletionReport: Equatable, Sendable, CustomStringConvertible {
    public var connectionIDs: [String]
    public var deleted: [CredentialReference]
    /// Items still in the store; recorded as pending and retried by
    /// `completePendingCleanup()`.
    public var remaining: [CredentialReference]
    public var failures: [CredentialStoreError]

    public var isComplete: Bool { remaining.isEmpty && failures.isEmpty }

    public var description: String {
        if isComplete { return "deleted \(deleted.count) item(s) for \(connectionIDs.joined(separator: ", "))" }
        return "partially deleted \(connectionIDs.joined(separator: ", ")): \(remaining.count) item(s) remain and will be retried"
            + (failures.first.map { " (\($0))" } ?? "")
    }
}

/// Result of a rotation that switched to the new key.
public enum RotationResult: Equatable, Sendable {
    case completed(newReference: CredentialReference)
    /// The new key is in use; the old item is recorded as pending and will
    /// be removed by `completePendingCleanup()`.
    case completedWithPendingCleanup(newReference: CredentialReference, pending: CredentialReference, failure: CredentialStoreError)

    public var newReference: CredentialReference {
        switch self {
        case .completed(let reference), .completedWithPendingCleanup(let reference, _, _): return reference
        }
    }
}

/// What `status` reports; safe to print.
public struct ConnectionStatus: Equatable, Sendable, CustomStringConvertible {
    public var connectionID: String
    public var state: CredentialState
    public var health: RequestHealth
    public var display: CredentialDisplay
    public var protectedHeaderNames: [String]
    public var pendingCleanup: [CredentialReference]
    /// The record points at an item the store no longer has.
    public var credentialMissing: Bool

    public var description: String {
        var text = "\(connectionID): \(state.rawValue), key \(display)"
        if credentialMissing { text += " (missing from the secret store)" }
        if !protectedHeaderNames.isEmpty { text += ", protected headers: \(protectedHeaderNames.joined(separator: ", "))" }
        if let failure = health.lastFailure {
            text += ", last check failed: \(failure.reason.rawValue)" + (failure.httpStatus.map { " (HTTP \($0))" } ?? "")
        }
        if !pendingCleanup.isEmpty { text += ", \(pendingCleanup.count) item(s) pending cleanup" }
        return text
    }
}
