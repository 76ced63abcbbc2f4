import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What happens to a request's headers when the server redirects it. Same origin
/// (scheme, host and port): followed unchanged. Any other origin: followed without the
/// credential headers, because the user confirmed the first origin and no other.
struct RedirectPolicy: Sendable {
    let origin: Origin
    let sensitiveHeaders: SensitiveHeaders
    let maximumRedirects: Int

    struct Decision {
        var request: URLRequest?
        var stripped: [String]
        var target: Origin?
    }

    func decide(_ newRequest: URLRequest, redirectCount: Int) -> Decision {
        guard redirectCount <= maximumRedirects, let url = newRequest.url, let target = Origin(url: url) else {
            return Decision(request: nil, stripped: [], target: nil)
        }
        guard target != origin else { return Decision(request: newRequest, stripped: [], target: target) }
        var request = newRequest
        var stripped: [String] = []
        // Foundation copies the original headers into the new request; remove every
        // sensitive one, whatever its spelling.
        for name in (request.allHTTPHeaderFields ?? [:]).keys where sensitiveHeaders.contains(name) {
            request.setValue(nil, forHTTPHeaderField: name)
            stripped.append(name)
        }
        return Decision(request: request, stripped: stripped.sorted(), target: target)
    }
}
