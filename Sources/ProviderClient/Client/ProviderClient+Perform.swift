import CredentialStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ProviderClient {
    /// One request from boundary to result: prepare (reading the credentials), send,
    /// decode, then record health, log and analytics. The `CredentialScope` is a local of
    /// this function and is released when it returns.
    func perform(_ chat: ChatRequest, endpoint: EndpointConfiguration, stream: Bool,
                 onEvent: @escaping @Sendable (ChatStreamEvent) -> Void) async throws -> ChatResponse {
        let started = Date()
        let provider: ProviderKind? = {
            if case .proxy(let proxy) = endpoint { return proxy.provider }
            return try? manager.record(for: endpoint.connectionID).provider
        }()
        let prepared: RequestBoundary.Prepared
        do {
            prepared = try boundary.prepare(chat, endpoint: endpoint, stream: stream)
        } catch {
            logger.log(.warning, .request, String(describing: error), connectionID: endpoint.connectionID)
            emit(.requestRefused, endpoint.connectionID, provider, AnalyticsResult(error), started, model: chat.model)
            throw error
        }
        logger.logRequest(prepared.request, sensitiveHeaders: prepared.sensitiveHeaders, connectionID: prepared.connectionID)

        do {
            let response = try await exchange(prepared, stream: stream, onEvent: onEvent)
            record(.succeeded, prepared)
            emit(stream ? .streamCompleted : .requestCompleted, prepared.connectionID, prepared.provider, .success, started,
                 httpStatus: 200, model: chat.model)
            return response
        } catch {
            if let providerError = error as? ProviderError { record(providerError.checkOutcome, prepared) }
            logger.log(error is CancellationError ? .info : .warning, stream ? .stream : .response,
                       prepared.scope.scrub(String(describing: error)), connectionID: prepared.connectionID)
            emit(stream ? .streamCompleted : .requestCompleted, prepared.connectionID, prepared.provider, AnalyticsResult(error),
                 started, httpStatus: (error as? ProviderError)?.httpStatus,
                 retryAfter: (error as? ProviderError)?.retryAfter, model: chat.model)
            throw error
        }
    }

    /// Sends the prepared request and reads the response.
    private func exchange(_ prepared: RequestBoundary.Prepared, stream: Bool,
                          onEvent: @escaping @Sendable (ChatStreamEvent) -> Void) async throws -> ChatResponse {
        var status = 0
        var retryAfter: TimeInterval?
        // A server may answer a streaming request with plain JSON; that body is buffered
        // and delivered as one piece.
        var isEventStream = false
        var buffered = Data()
        var parser = ServerSentEventParser()
        var decoder = StreamDecoder(api: prepared.api)
        var text = ""
        var stopReason: String?

        func deliver(_ events: [ChatStreamEvent]) {
            for event in events {
                switch event {
                case .text(let piece): text += piece
                case .finished(let reason): stopReason = reason
                }
                onEvent(event)
            }
        }

        let events = transport.start(prepared.request, origin: prepared.origin, sensitiveHeaders: prepared.sensitiveHeaders)
        for try await event in events {
            switch event {
            case .redirected(let from, let to, let stripped):
                logger.log(.notice, .redirect, "redirect from \(from) to \(to)", connectionID: prepared.connectionID,
                           fields: ["strippedHeaders": stripped.isEmpty ? "none" : stripped.joined(separator: ",")])
                if !stripped.isEmpty {
                    emit(.redirectStrippedCredentials, prepared.connectionID, prepared.provider, .success, Date())
                }
            case .response(let response):
                status = response.statusCode
                retryAfter = ProviderError.parseRetryAfter(response.value(forHTTPHeaderField: "Retry-After"))
                isEventStream = response.value(forHTTPHeaderField: "Content-Type")?.lowercased().hasPrefix("text/event-stream") ?? false
                logger.logResponse(response, connectionID: prepared.connectionID, sensitiveHeaders: prepared.sensitiveHeaders)
            case .data(let data):
                if stream && isEventStream && (200...299).contains(status) {
                    for sse in try parser.feed(data) { deliver(try decoder.decode(sse)) }
                    if decoder.isFinished { break }
                } else {
                    guard buffered.count + data.count <= Self.maximumBufferedBody else {
                        throw ProviderError.transport(.invalidResponse)
                    }
                    buffered.append(data)
                }
            }
            if decoder.isFinished { break }
        }
        try Task.checkCancellation()

        if let error = ProviderError(status: status, retryAfter: retryAfter) {
            logErrorBody(buffered, status: status, prepared: prepared)
            throw error
        }
        guard status != 0 else { throw ProviderError.transport(.invalidResponse) }
        if stream && !isEventStream {
            let whole = try RequestBody.decodeResponse(buffered, api: prepared.api)
            deliver([.text(whole.text), .finished(stopReason: whole.stopReason)])
            return whole
        }
        if stream {
            for sse in parser.finish() { deliver(try decoder.decode(sse)) }
            deliver(decoder.finishAtEndOfStream())
            return ChatResponse(text: text, stopReason: stopReason)
        }
        return try RequestBody.decodeResponse(buffered, api: prepared.api)
    }

    /// The error body, for diagnosis: scrubbed of this request's values (and pieces) first, then
    /// of anything key-shaped, then cut short.
    private func logErrorBody(_ body: Data, status: Int, prepared: RequestBoundary.Prepared) {
        let excerpt = String(decoding: body.prefix(Self.loggedErrorBody), as: UTF8.self)
        var fields = ["status": String(status), "body": prepared.scope.scrub(excerpt)]
        if let type = RequestBody.errorType(in: body) { fields["providerErrorType"] = type }
        logger.log(.warning, .response, "HTTP \(status) from \(prepared.origin)", connectionID: prepared.connectionID, fields: fields)
    }

    /// Feeds the connection's request health; never changes whether the key is considered
    /// valid or revoked on a failure (the credential store's rule).
    private func record(_ outcome: CheckOutcome, _ prepared: RequestBoundary.Prepared) {
        guard prepared.isDirect else { return }
        do {
            try manager.recordCheck(outcome, for: prepared.connectionID)
        } catch {
            logger.log(.warning, .credential, "could not record request health: \(error)", connectionID: prepared.connectionID)
        }
    }

    private func emit(_ name: AnalyticsEventName, _ connectionID: String, _ provider: ProviderKind?, _ result: AnalyticsResult,
                      _ started: Date, httpStatus: Int? = nil, retryAfter: TimeInterval? = nil, model: String? = nil) {
        guard let analytics else { return }
        analytics.record(AnalyticsEvent(name: name, connection: analytics.identities.id(for: connectionID), provider: provider,
                                        result: result, httpStatus: httpStatus,
                                        durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000),
                                        retryAfterSeconds: retryAfter.map { Int($0.rounded(.up)) },
                                        model: model.map(logger.redact)))
    }
}

extension ProviderError {
    /// The request-health record for this error.
    var checkOutcome: CheckOutcome {
        switch self {
        case .transport: return .failed(.network, httpStatus: nil)
        case .overloaded: return .failed(.serverError, httpStatus: httpStatus)
        default:
            guard let status = httpStatus else { return .failed(.other, httpStatus: nil) }
            return .http(status)
        }
    }
}
