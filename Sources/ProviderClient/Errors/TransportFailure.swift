import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why no usable HTTP response arrived. Built from `URLError` codes only: the error's own
/// text and user info can quote the request URL, so they are never kept.
public enum TransportFailure: Equatable, Sendable, CustomStringConvertible {
    case timedOut
    case cannotConnect
    case connectionLost
    case secureConnectionFailed
    case tooManyRedirects
    /// The response was not HTTP, or a stream did not follow the SSE/JSON format.
    case invalidResponse
    case other(code: Int)

    init(_ error: Error) {
        guard let error = error as? URLError else {
            self = .other(code: (error as NSError).code)
            return
        }
        switch error.code {
        case .timedOut: self = .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet: self = .cannotConnect
        case .networkConnectionLost: self = .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self = .secureConnectionFailed
        case .httpTooManyRedirects, .redirectToNonExistentLocation: self = .tooManyRedirects
        case .badServerResponse, .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData: self = .invalidResponse
        default: self = .other(code: error.errorCode)
        }
    }

    public var description: String {
        switch self {
        case .timedOut: return "timed out"
        case .cannotConnect: return "cannot connect to the host"
        case .connectionLost: return "the connection was lost"
        case .secureConnectionFailed: return "the TLS connection failed"
        case .tooManyRedirects: return "too many redirects"
        case .invalidResponse: return "the response was not in the expected format"
        case .other(let code): return "URL error \(code)"
        }
    }
}
