import CredentialStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends chat requests to Anthropic, OpenAI, OpenAI-compatible and custom endpoints with
/// the user's own key (or through the app's proxy), streaming or not.
///
/// The client holds no credential. Each request reads what it needs from the credential
/// store inside `RequestBoundary` when the request is built; the values live in that
/// request's `CredentialScope` and nowhere else, so a key stored, rotated or deleted after
/// the client was created takes effect on the next request.
public final class ProviderClient: Sendable {
    public let manager: ConnectionManager
    public let confirmations: OriginConfirmations
    public let logger: ClientLogger
    public let analytics: AnalyticsRecorder?
    let transport: URLSessionTransport
    let boundary: RequestBoundary
    let inFlight = InFlightRequests()

    /// Upper bound on a buffered (non-streamed or error) response body.
    static let maximumBufferedBody = 16 << 20
    /// Error bodies are logged, redacted, up to this many bytes.
    static let loggedErrorBody = 2048

    public init(manager: ConnectionManager, confirmations: OriginConfirmations = OriginConfirmations(),
                transport: URLSessionTransport = URLSessionTransport(), logger: ClientLogger = .disabled,
                analytics: AnalyticsRecorder? = nil, timeout: TimeInterval = 300) {
        self.manager = manager
        self.confirmations = confirmations
        self.transport = transport
        self.logger = logger
        self.analytics = analytics
        boundary = RequestBoundary(manager: manager, confirmations: confirmations, timeout: timeout)
    }

    /// Sends and waits for the whole answer.
    public func send(_ request: ChatRequest, to endpoint: EndpointConfiguration) async throws -> ChatResponse {
        let task = Task { try await self.perform(request, endpoint: endpoint, stream: false, onEvent: { _ in }) }
        let token = inFlight.add(endpoint.connectionID) { task.cancel() }
        defer { inFlight.remove(token) }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Streams the answer as it arrives. Stop iterating (or cancel the consuming task) to
    /// cancel the HTTP request.
    public func stream(_ request: ChatRequest, to endpoint: EndpointConfiguration) -> AsyncThrowingStream<ChatStreamEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<ChatStreamEvent, Error>.makeStream()
        let task = Task {
            do {
                _ = try await self.perform(request, endpoint: endpoint, stream: true, onEvent: { continuation.yield($0) })
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let token = inFlight.add(endpoint.connectionID) { task.cancel() }
        continuation.onTermination = { [inFlight] _ in
            task.cancel()
            inFlight.remove(token)
        }
        return stream
    }

    /// Cancels every request of a connection; wire it to `ConnectionHooks.cancelPendingWork`.
    public func cancelRequests(for connectionID: String) {
        inFlight.cancel(connectionID: connectionID)
    }

    public func cancelAllRequests() {
        inFlight.cancelAll()
    }

    /// Confirms the origin of a custom endpoint for a connection: the user saw the scheme,
    /// host and port and said yes. Returns the origin that was confirmed.
    @discardableResult
    public func confirmOrigin(of connectionID: String) throws -> Origin {
        let record: ConnectionRecord
        do { record = try manager.record(for: connectionID) } catch { throw RequestRefusal.unknownConnection(connectionID) }
        guard let origin = Origin(url: record.baseURL) else {
            throw RequestRefusal.invalidConfiguration("the endpoint must be an http or https URL")
        }
        confirmations.confirm(origin, for: connectionID)
        logger.log(.notice, .credential, "origin \(origin) confirmed", connectionID: connectionID)
        return origin
    }
}
