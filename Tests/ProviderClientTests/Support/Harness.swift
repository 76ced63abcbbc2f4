import CredentialStore
import Foundation
@testable import ProviderClient

final class CollectingAnalyticsSink: AnalyticsSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Data] = []

    func send(_ encodedEvent: Data) {
        lock.lock(); defer { lock.unlock() }
        stored.append(encodedEvent)
    }

    var events: [Data] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }

    var objects: [[String: Any]] {
        events.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}

/// A client wired to an in-memory store, with every output collected.
final class Harness {
    let store: CredentialStore
    let repository: ConnectionRepository
    let manager: ConnectionManager
    let logSink = CollectingLogSink(capacity: 10_000)
    let analyticsSink = CollectingAnalyticsSink()
    let logger: ClientLogger
    let analytics: AnalyticsRecorder
    let client: ProviderClient

    init(store: CredentialStore = InMemoryCredentialStore(), repository: ConnectionRepository = InMemoryConnectionRepository(),
         redactor: Redactor = Repo.redactor, level: LogLevel = .debug, timeout: TimeInterval = 20) {
        self.store = store
        self.repository = repository
        manager = ConnectionManager(store: store, repository: repository)
        logger = ClientLogger(sink: logSink, redactor: redactor, minimumLevel: level)
        analytics = AnalyticsRecorder(sink: analyticsSink, logger: logger)
        client = ProviderClient(manager: manager, transport: URLSessionTransport(timeout: timeout), logger: logger,
                                analytics: analytics, timeout: timeout)
    }

    /// Stores a connection and (by default) confirms its origin, as a user would.
    @discardableResult
    func connect(_ id: String, provider: ProviderKind = ProviderKind("custom"), baseURL: URL, key: String,
                 api: ProviderAPI = .anthropicMessages, authentication: AuthenticationScheme? = nil,
                 headers: [String: CustomHeaderValue] = [:], confirm: Bool = true) throws -> EndpointConfiguration {
        let record = ConnectionRecord(id: id, provider: provider, displayName: "Connection \(id)", baseURL: baseURL,
                                      modelPreferences: ModelPreferences(defaultModel: "test-model"))
        let profile = try ConnectionProfile.configure(record, apiKey: Secret(key), headers: headers, api: api,
                                                      authentication: authentication, in: manager)
        if confirm { try client.confirmOrigin(of: id) }
        return .direct(profile)
    }

    var logText: String { logSink.records.map(\.description).joined(separator: "\n") }

    var logJSONLines: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return logSink.records.compactMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: "\n")
    }

    var analyticsText: String { analyticsSink.events.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") }
}

let hello = ChatRequest(model: "test-model", messages: [.user("Hello")])

/// Runs `body` and returns its error (or fails when it succeeds).
func captureError<T>(_ body: () async throws -> T) async -> Error? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
