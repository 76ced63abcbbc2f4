import Foundation

/// Storage state of a connection's credential. Changes only through
/// explicit storage events or authoritative verdicts — never because one
/// request failed (see `RequestHealth`).
public enum CredentialState: String, Codable, Sendable, CaseIterable {
    case notConfigured = "not-configured"
    case configured
    case valid
    case invalid
    case revoked
    /// A rotation stored a new key that has not been checked yet.
    case replaced
    case deleted
}

/// Why a check against the provider failed. Recorded, not acted on: a 401
/// can be a clock skew, a proxy, a wrong base URL or an outage.
public enum CheckFailureReason: String, Codable, Sendable {
    case unauthorized
    case forbidden
    case rateLimited = "rate-limited"
    case serverError = "server-error"
    case network
    case other

    public init(httpStatus: Int) {
        switch httpStatus {
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 429: self = .rateLimited
        case 500...599: self = .serverError
        default: self = .other
        }
    }
}

/// Outcome of one request or explicit key check.
public enum CheckOutcome: Sendable, Equatable {
    case succeeded
    case failed(CheckFailureReason, httpStatus: Int?)

    public static func http(_ status: Int) -> CheckOutcome {
        (200...299).contains(status) ? .succeeded : .failed(CheckFailureReason(httpStatus: status), httpStatus: status)
    }
}

/// Request health, kept apart from `CredentialState`.
public struct RequestHealth: Codable, Equatable, Sendable {
    public struct FailedCheck: Codable, Equatable, Sendable {
        public var at: Date
        public var reason: CheckFailureReason
        public var httpStatus: Int?
    }

    public var lastSuccess: Date?
    public var lastFailure: FailedCheck?
    public var consecutiveFailures: Int

    public init() {
        consecutiveFailures = 0
    }

    public mutating func record(_ outcome: CheckOutcome, at date: Date) {
        switch outcome {
        case .succeeded:
            lastSuccess = date
            consecutiveFailures = 0
        case .failed(let reason, let status):
            lastFailure = FailedCheck(at: date, reason: reason, httpStatus: status)
            consecutiveFailures += 1
        }
    }
}

extension CredentialState {
    /// The state after a check. Only success moves the state (to `valid`);
    /// failures are left to `RequestHealth` and to explicit verdicts.
    func afterCheck(_ outcome: CheckOutcome) -> CredentialState {
        switch (self, outcome) {
        case (.configured, .succeeded), (.replaced, .succeeded), (.invalid, .succeeded), (.valid, .succeeded):
            return .valid
        default:
            return self
        }
    }

    /// Whether a credential in this state may be sent with requests.
    public var isUsable: Bool {
        switch self {
        case .configured, .valid, .replaced: return true
        case .notConfigured, .invalid, .revoked, .deleted: return false
        }
    }
}
