import Foundation

/// What went wrong once a request reached the network. A small closed set an app can
/// switch over; no case carries text from the response, the request or the key, so no
/// description can leak one.
///
/// `unauthorized` means "the provider said 401 this time", not "the key is revoked": a
/// 401 can come from clock skew, a proxy, a wrong base URL or an outage. The client feeds
/// the connection's `RequestHealth` and leaves verdicts to the app and the user.
public enum ProviderError: Error, Equatable, Sendable {
    case unauthorized
    case forbidden
    case rateLimited(retryAfter: TimeInterval?)
    case overloaded(retryAfter: TimeInterval?)
    /// 4xx other than 401/403/429, and unfollowed 3xx: the request must change.
    case badRequest(status: Int)
    case server(status: Int)
    case transport(TransportFailure)

    /// Maps an HTTP status; nil for success.
    public init?(status: Int, retryAfter: TimeInterval? = nil) {
        switch status {
        case 200...299: return nil
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 429: self = .rateLimited(retryAfter: retryAfter)
        // 529 is Anthropic's "overloaded"; 503 is everyone else's.
        case 503, 529: self = .overloaded(retryAfter: retryAfter)
        case 500...599: self = .server(status: status)
        default: self = .badRequest(status: status)
        }
    }

    /// Maps the `type` of an error event inside a stream (Anthropic sends `overloaded_error`
    /// and friends mid-stream, after a 200).
    init(streamErrorType type: String?) {
        switch type {
        case "authentication_error": self = .unauthorized
        case "permission_error": self = .forbidden
        case "rate_limit_error", "rate_limit_exceeded": self = .rateLimited(retryAfter: nil)
        case "overloaded_error": self = .overloaded(retryAfter: nil)
        case "invalid_request_error", "not_found_error", "request_too_large": self = .badRequest(status: 400)
        default: self = .server(status: 500)
        }
    }

    /// HTTP status behind the error, when there was one.
    public var httpStatus: Int? {
        switch self {
        case .unauthorized: return 401
        case .forbidden: return 403
        case .rateLimited: return 429
        case .overloaded: return nil
        case .badRequest(let status), .server(let status): return status
        case .transport: return nil
        }
    }

    public var retryAfter: TimeInterval? {
        switch self {
        case .rateLimited(let seconds), .overloaded(let seconds): return seconds
        default: return nil
        }
    }

    /// `Retry-After` as seconds or an HTTP date; nil when absent or unreadable.
    public static func parseRetryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds >= 0, seconds.isFinite { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

extension ProviderError: CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    public var description: String {
        func after(_ seconds: TimeInterval?) -> String {
            seconds.map { "; retry after \(Int($0.rounded(.up))) s" } ?? ""
        }
        switch self {
        case .unauthorized: return "the provider rejected the credentials (HTTP 401)"
        case .forbidden: return "the credentials may not use this resource (HTTP 403)"
        case .rateLimited(let seconds): return "rate limited (HTTP 429)" + after(seconds)
        case .overloaded(let seconds): return "the provider is overloaded" + after(seconds)
        case .badRequest(let status): return "the provider refused the request (HTTP \(status))"
        case .server(let status): return "the provider failed (HTTP \(status))"
        case .transport(let failure): return "network failure: \(failure)"
        }
    }

    public var debugDescription: String { "ProviderError(\(description))" }
    public var errorDescription: String? { description }
}
