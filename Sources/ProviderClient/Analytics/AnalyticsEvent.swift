import CredentialStore
import Foundation

/// What happened, as a closed set.
public enum AnalyticsEventName: String, Encodable, Sendable {
    case requestCompleted = "request_completed"
    case streamCompleted = "stream_completed"
    case requestRefused = "request_refused"
    case redirectStrippedCredentials = "redirect_stripped_credentials"
    case backupExported = "backup_exported"
    case backupRestored = "backup_restored"
}

/// How it ended. `unauthorized` is a result, not a verdict on the key.
public enum AnalyticsResult: String, Encodable, Sendable {
    case success
    case unauthorized
    case forbidden
    case rateLimited = "rate_limited"
    case overloaded
    case badRequest = "bad_request"
    case serverError = "server_error"
    case transportError = "transport_error"
    case cancelled
    case refused
    case credentialRequired = "credential_required"

    public init(_ error: Error) {
        switch error {
        case let error as ProviderError:
            switch error {
            case .unauthorized: self = .unauthorized
            case .forbidden: self = .forbidden
            case .rateLimited: self = .rateLimited
            case .overloaded: self = .overloaded
            case .badRequest: self = .badRequest
            case .server: self = .serverError
            case .transport: self = .transportError
            }
        case RequestRefusal.credentialRequired: self = .credentialRequired
        case is RequestRefusal: self = .refused
        case is CancellationError: self = .cancelled
        default: self = .transportError
        }
    }
}

/// A property name an event may carry. Names that announce a credential (`api_key`,
/// `authorization`, `token`, `x-api-key`, any header) are refused at construction, so an
/// event has no slot a key, token or header could be put into by name.
public struct AnalyticsPropertyName: Hashable, Sendable, Encodable {
    public let rawValue: String

    public init?(_ name: String) {
        guard (1...40).contains(name.utf8.count),
              name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }),
              !CredentialNames.looksSensitive(name), !name.contains("header")
        else { return nil }
        rawValue = name
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Property values: numbers, flags, and text only as `RedactedText`.
public enum AnalyticsValue: Hashable, Sendable, Encodable {
    case int(Int)
    case bool(Bool)
    case text(RedactedText)

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}

/// A typed analytics event: opaque connection id, provider kind, result, numbers. No
/// field takes a plain `String`: text (the model name) must be `RedactedText`, and the
/// provider kind, which a user names for a custom endpoint, is checked by the encoder.
public struct AnalyticsEvent: Sendable, Encodable {
    public let name: AnalyticsEventName
    public let connection: OpaqueConnectionID?
    public let provider: ProviderKind?
    public let result: AnalyticsResult
    public let httpStatus: Int?
    public let durationMilliseconds: Int?
    public let retryAfterSeconds: Int?
    public let model: RedactedText?
    public private(set) var properties: [String: AnalyticsValue] = [:]

    public init(name: AnalyticsEventName, connection: OpaqueConnectionID?, provider: ProviderKind?, result: AnalyticsResult,
                httpStatus: Int? = nil, durationMilliseconds: Int? = nil, retryAfterSeconds: Int? = nil, model: RedactedText? = nil) {
        self.name = name
        self.connection = connection
        self.provider = provider
        self.result = result
        self.httpStatus = httpStatus
        self.durationMilliseconds = durationMilliseconds
        self.retryAfterSeconds = retryAfterSeconds
        self.model = model
    }

    public mutating func set(_ name: AnalyticsPropertyName, _ value: AnalyticsValue) {
        properties[name.rawValue] = value
    }

    private enum CodingKeys: String, CodingKey {
        case name = "event", connection, provider, result, httpStatus = "http_status",
             durationMilliseconds = "duration_ms", retryAfterSeconds = "retry_after_s", model, properties
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(connection, forKey: .connection)
        try container.encodeIfPresent(provider, forKey: .provider)
        try container.encode(result, forKey: .result)
        try container.encodeIfPresent(httpStatus, forKey: .httpStatus)
        try container.encodeIfPresent(durationMilliseconds, forKey: .durationMilliseconds)
        try container.encodeIfPresent(retryAfterSeconds, forKey: .retryAfterSeconds)
        try container.encodeIfPresent(model, forKey: .model)
        if !properties.isEmpty { try container.encode(properties, forKey: .properties) }
    }
}
