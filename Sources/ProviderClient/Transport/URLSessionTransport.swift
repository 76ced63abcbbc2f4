import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over `URLSession` (FoundationNetworking on Linux), configured so nothing about a
/// request outlives it: no cache, no cookies, no credential storage.
public final class URLSessionTransport: @unchecked Sendable {
    private let session: URLSession
    private let delegate: TransportDelegate
    public let maximumRedirects: Int

    public init(timeout: TimeInterval = 300, maximumRedirects: Int = 5) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        delegate = TransportDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.maximumRedirects = maximumRedirects
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Starts `request`; events arrive on the stream, which finishes when the response
    /// ends. Ending the stream's iteration early (or cancelling the consuming task)
    /// cancels the HTTP task.
    func start(_ request: URLRequest, origin: Origin, sensitiveHeaders: SensitiveHeaders) -> AsyncThrowingStream<TransportEvent, Error> {
        let policy = RedirectPolicy(origin: origin, sensitiveHeaders: sensitiveHeaders, maximumRedirects: maximumRedirects)
        let (stream, continuation) = AsyncThrowingStream<TransportEvent, Error>.makeStream()
        let task = session.dataTask(with: request)
        delegate.register(task, continuation: continuation, policy: policy)
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        task.resume()
        return stream
    }
}
