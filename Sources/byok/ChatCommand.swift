import CredentialStore
import Foundation
import ProviderClient
import StandardStreams

/// `byok chat`: configure the connection if needed, confirm its origin, send, stream.
struct ChatCommand {
    let options: ChatOptions
    /// Scrubs what the arguments said out of every message on stderr.
    let echo: ArgumentEcho

    /// Exit status: 0 answered, 1 the provider or network failed, 2 refused or misused.
    func run() async -> Int32 {
        var sinks: [LogSink] = []
        if options.verbose { sinks.append(JSONLinesLogSink { StandardStream.error.write($0) }) }
        if let path = options.logFile {
            guard let log = AppendedFile(path: path) else { return fail("\(path): cannot open the log file") }
            sinks.append(JSONLinesLogSink { log.append($0) })
        }
        let redactor: Redactor
        do {
            redactor = options.rules.isEmpty ? .fallbackOnly : try Redactor(ruleFiles: ruleFiles(options.rules))
        } catch {
            return fail("cannot load rules: \(Redactor.fallbackOnly.redact(String(describing: error)))")
        }
        let logger = ClientLogger(sink: sinks.isEmpty ? nil : FanOutSink(sinks), redactor: redactor,
                                  minimumLevel: options.verbose ? .debug : .info)

        guard let store = PlatformCredentialStore.make(named: options.store) else {
            return fail("the store asked for is not available (available: \(PlatformCredentialStore.availableNames.joined(separator: ", ")))")
        }
        let repository: ConnectionRepository = options.metadataFile.map { JSONFileConnectionRepository(fileURL: URL(fileURLWithPath: $0)) }
            ?? InMemoryConnectionRepository()
        let manager = ConnectionManager(store: store, repository: repository)
        let client = ProviderClient(manager: manager, logger: logger)

        var prompt = SecretPrompt()
        let profile: ConnectionProfile
        do {
            profile = try configureIfNeeded(manager: manager, prompt: &prompt)
            try confirmOrigin(client: client, manager: manager, prompt: prompt)
        } catch {
            return fail(logger.describe(error).text)
        }

        let request = ChatRequest(model: options.model ?? "", messages: [.user(options.message ?? "")])
        do {
            if options.stream {
                for try await event in client.stream(request, to: .direct(profile)) {
                    if case .text(let piece) = event { write(piece) }
                }
            } else {
                write(try await client.send(request, to: .direct(profile)).text)
            }
            write("\n")
            return 0
        } catch {
            StandardStream.error.write(echo.scrub("byok: \(logger.describe(error))") + "\n")
            return error is RequestRefusal ? 2 : 1
        }
    }

    private func configureIfNeeded(manager: ConnectionManager, prompt: inout SecretPrompt) throws -> ConnectionProfile {
        if let record = try? manager.record(for: options.connection) {
            var profile = ConnectionProfile(record: record)
            if let api = options.api { profile.api = api }
            if let authentication = options.authentication { profile.authentication = authentication }
            profile.publicHeaders = options.publicHeaders
            return profile
        }
        let record = ConnectionRecord(id: options.connection, provider: options.provider, displayName: options.connection,
                                      baseURL: options.resolvedBaseURL,
                                      modelPreferences: ModelPreferences(defaultModel: options.model))
        var headers: [String: CustomHeaderValue] = options.publicHeaders.mapValues { .public($0) }
        let key = try prompt.read("API key")
        for (n, name) in options.protectedHeaders.enumerated() {
            headers[name] = .protected(try prompt.read("value of protected header \(n + 1) of \(options.protectedHeaders.count)"))
        }
        return try ConnectionProfile.configure(record, apiKey: key, headers: headers, api: options.api,
                                               authentication: options.authentication, in: manager)
    }

    /// Custom origins need the user's yes: `--confirm` with the exact origin, or a prompt.
    private func confirmOrigin(client: ProviderClient, manager: ConnectionManager, prompt: SecretPrompt) throws {
        let record = try manager.record(for: options.connection)
        guard let origin = Origin(url: record.baseURL) else { return }
        if Origin.wellKnown.contains(origin) || client.confirmations.isConfirmed(origin, for: record.id) { return }
        if options.confirm == origin.description || prompt.confirm("Send the credentials of this connection to \(origin)?") {
            client.confirmations.confirm(origin, for: record.id)
            return
        }
        throw RequestRefusal.originNotConfirmed(origin)
    }

    private func ruleFiles(_ paths: [String]) -> [URL] {
        paths.flatMap { path -> [URL] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [URL(fileURLWithPath: path)]
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".toml") }.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0) }
        }
    }

    /// The answer, as the provider sent it. A write error never traps (StandardStream);
    /// main.swift decides what a failed stdout means.
    private func write(_ text: String) {
        StandardStream.output.write(text)
    }

    private func fail(_ message: String) -> Int32 {
        StandardStream.error.write(echo.scrub("byok: \(message)") + "\n")
        return 2
    }
}

/// Sends each record to several sinks.
final class FanOutSink: LogSink, @unchecked Sendable {
    let sinks: [LogSink]

    init(_ sinks: [LogSink]) {
        self.sinks = sinks
    }

    func write(_ record: LogRecord) {
        sinks.forEach { $0.write(record) }
    }
}
