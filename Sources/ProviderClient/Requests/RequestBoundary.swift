import CredentialStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request boundary: turns a chat request and an endpoint configuration into a
/// `URLRequest` plus the `CredentialScope` of that one request. All checks that need no
/// secret run first (URL shape, transport security, origin confirmation), so a refused
/// request never even reads the store; the checks that do need it (the value in the URL
/// or body) run right after the read.
struct RequestBoundary {
    let manager: ConnectionManager
    let confirmations: OriginConfirmations
    let timeout: TimeInterval

    struct Prepared {
        var request: URLRequest
        var scope: CredentialScope
        var origin: Origin
        var connectionID: String
        var provider: ProviderKind
        var api: ProviderAPI
        /// Direct connections have a record whose health the client updates.
        var isDirect: Bool
        var sensitiveHeaders: SensitiveHeaders
    }

    func prepare(_ chat: ChatRequest, endpoint: EndpointConfiguration, stream: Bool) throws -> Prepared {
        switch endpoint {
        case .direct(let profile): return try prepareDirect(chat, profile: profile, stream: stream)
        case .proxy(let proxy): return try prepareProxy(chat, proxy: proxy, stream: stream)
        }
    }

    private func prepareDirect(_ chat: ChatRequest, profile: ConnectionProfile, stream: Bool) throws -> Prepared {
        let id = profile.connectionID
        let record: ConnectionRecord
        do { record = try manager.record(for: id) } catch { throw refusal(for: error, connectionID: id) }
        let url = try Self.endpointURL(base: record.baseURL, path: profile.api.path)
        let origin = try checkedOrigin(url, credentialed: true)
        guard confirmations.allowsCredentials(to: origin, for: id) else { throw RequestRefusal.originNotConfirmed(origin) }

        var scope = CredentialScope()
        do {
            for (name, value) in try manager.protectedHeaders(for: id).sorted(by: { $0.key < $1.key }) {
                scope.add(header: name, value: value)
            }
            if let headerName = profile.authentication.headerName {
                let key = try manager.apiKey(for: id)
                scope.add(header: headerName, value: key, prefix: profile.authentication.headerPrefix)
            }
        } catch {
            throw refusal(for: error, connectionID: id)
        }

        var request = try baseRequest(url: url, chat: chat, api: profile.api, stream: stream, scope: scope)
        let reserved = Set(scope.headerNames.map { $0.lowercased() })
        for (name, value) in profile.publicHeaders.sorted(by: { $0.key < $1.key }) where !reserved.contains(name.lowercased()) {
            guard HTTPHeaderName.isValid(name), !CredentialNames.isCredentialHeader(name) else {
                throw RequestRefusal.invalidConfiguration("header \(name) carries credentials and must be classified protected")
            }
            guard !scope.occurs(in: value) else {
                throw RequestRefusal.invalidConfiguration("a public header contains this connection's credential")
            }
            request.setValue(value, forHTTPHeaderField: name)
        }
        scope.apply(to: &request)
        return Prepared(request: request, scope: scope, origin: origin, connectionID: id, provider: record.provider,
                        api: profile.api, isDirect: true,
                        sensitiveHeaders: SensitiveHeaders(scope.headerNames + record.protectedHeaderNames))
    }

    private func prepareProxy(_ chat: ChatRequest, proxy: ProxyConfiguration, stream: Bool) throws -> Prepared {
        let url = try Self.endpointURL(base: proxy.baseURL, path: proxy.api.path)
        let origin = try checkedOrigin(url, credentialed: proxy.appToken != nil)
        var scope = CredentialScope()
        if let token = proxy.appToken {
            guard HTTPHeaderName.isValid(token.headerName) else { throw RequestRefusal.invalidConfiguration("invalid app token header name") }
            do {
                let value = try manager.store.read(token.reference)
                scope.add(header: token.headerName, value: value, prefix: token.bearer ? "Bearer " : "")
            } catch {
                throw refusal(for: error, connectionID: proxy.name)
            }
        }
        var request = try baseRequest(url: url, chat: chat, api: proxy.api, stream: stream, scope: scope)
        scope.apply(to: &request)
        return Prepared(request: request, scope: scope, origin: origin, connectionID: proxy.name, provider: proxy.provider,
                        api: proxy.api, isDirect: false, sensitiveHeaders: SensitiveHeaders(scope.headerNames))
    }

    /// URL shape and transport checks that need no secret.
    private func checkedOrigin(_ url: URL, credentialed: Bool) throws -> Origin {
        guard let origin = Origin(url: url) else { throw RequestRefusal.invalidConfiguration("the endpoint must be an http or https URL") }
        try URLCredentialPolicy.checkShape(of: url)
        if credentialed && !origin.isSecure && !origin.isLoopback { throw RequestRefusal.insecureTransport(origin) }
        return origin
    }

    private func baseRequest(url: URL, chat: ChatRequest, api: ProviderAPI, stream: Bool, scope: CredentialScope) throws -> URLRequest {
        try URLCredentialPolicy.check(url, against: scope)
        let body = try RequestBody.encode(chat, api: api, stream: stream)
        if scope.occurs(in: String(decoding: body, as: UTF8.self)) || chat.messages.contains(where: { scope.occurs(in: $0.content) })
            || scope.occurs(in: chat.system ?? "") {
            throw RequestRefusal.credentialInBody
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.httpShouldHandleCookies = false
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(stream ? "text/event-stream" : "application/json", forHTTPHeaderField: "Accept")
        if api == .anthropicMessages {
            request.setValue(ProviderAPI.anthropicVersion, forHTTPHeaderField: "anthropic-version")
        }
        return request
    }

    /// `{base}/{path}`, keeping the base's own query (Azure's `api-version`).
    static func endpointURL(base: URL, path: String) throws -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            throw RequestRefusal.invalidConfiguration("the base URL cannot be parsed")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + "/" + path
        guard let url = components.url else { throw RequestRefusal.invalidConfiguration("the base URL cannot be extended") }
        return url
    }

    /// Store and manager errors carry ids, references and states only, so their
    /// descriptions are safe to keep.
    private func refusal(for error: Error, connectionID: String) -> RequestRefusal {
        switch error {
        case let refusal as RequestRefusal:
            return refusal
        case ConnectionError.unknownConnection:
            return .unknownConnection(connectionID)
        case ConnectionError.notUsable, ConnectionError.store(.notFound), CredentialStoreError.notFound:
            return .credentialRequired(connectionID: connectionID)
        default:
            return .credentialUnavailable(connectionID: connectionID, reason: String(describing: error))
        }
    }
}
