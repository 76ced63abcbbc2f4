import CommandLineFlags
import CredentialStore
import Foundation
import StandardStreams

/// `keyshape-credentials`: set, inspect, rotate and delete connection keys.
/// Output never contains a key: statuses show `Configured` or `••••abcd`,
/// and arguments are never echoed back (a mistyped argument may be a key): the texts here
/// leave them out, and ArgumentEcho scrubs whatever the store's messages quote.
struct CredentialsCommand {
    enum Exit {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 2
        /// Deletion left items behind; they are recorded and `cleanup` retries them.
        static let incomplete: Int32 = 3
    }

    let arguments: [String]
    private let echo: ArgumentEcho
    /// Lines for stdout and stderr, already scrubbed of arguments. Write errors never trap
    /// (StandardStream); main.swift decides what a failed stdout means for the exit status.
    var writeOutput: (String) -> Void = { StandardStream.output.write($0 + "\n") }
    var writeError: (String) -> Void = { StandardStream.error.write($0 + "\n") }

    init(arguments: [String]) {
        self.arguments = arguments
        echo = ArgumentEcho(arguments: arguments, vocabulary: Options.commands.union(["anthropic", "openai"])
                                .union(PlatformCredentialStore.availableNames), pathFlags: ["--records"])
    }

    private func output(_ text: String) { writeOutput(echo.scrub(text)) }
    private func errorOutput(_ text: String) { writeError(echo.scrub(text)) }

    /// A connection's status line without its id when the id came from the command line.
    private func named(_ status: ConnectionStatus) -> String {
        let text = status.description
        let prefix = status.connectionID + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    func run() -> Int32 {
        do {
            var options = try Options.parse(arguments)
            if options.command == "help" {
                output(Self.usage)
                return Exit.success
            }
            let manager = try makeManager(options)
            return try dispatch(&options, manager)
        } catch let error as UsageError {
            errorOutput("keyshape-credentials: \(error) (see keyshape-credentials --help)")
            return Exit.usage
        } catch {
            errorOutput("keyshape-credentials: \(error)")
            return Exit.failure
        }
    }

    private func makeManager(_ options: Options) throws -> ConnectionManager {
        let storeName = options.store ?? PlatformCredentialStore.name
        guard let store = PlatformCredentialStore.make(named: storeName) else {
            throw UsageError(message: "the store asked for is not available here (available: \(PlatformCredentialStore.availableNames.joined(separator: ", ")))")
        }
        let repository: ConnectionRepository
        if let path = options.recordsPath {
            repository = JSONFileConnectionRepository(fileURL: URL(fileURLWithPath: path))
        } else if storeName == "memory" {
            // Metadata pointing at keys that vanish with the process would be a lie.
            repository = InMemoryConnectionRepository()
        } else {
            repository = JSONFileConnectionRepository(fileURL: JSONFileConnectionRepository.defaultFileURL())
        }
        return ConnectionManager(store: store, repository: repository)
    }

    private func dispatch(_ options: inout Options, _ manager: ConnectionManager) throws -> Int32 {
        switch options.command {
        case "set":
            let id = try options.requireConnection()
            let provider = ProviderKind(options.provider ?? "anthropic")
            guard let baseURL = options.baseURL.flatMap(URL.init(string:)) ?? Self.defaultBaseURL(provider) else {
                throw UsageError(message: "--base-url is required for this provider (anthropic and openai have defaults)")
            }
            var reader = SecretReader()
            let key = try reader.read(prompt: "API key")
            var headers: [String: Secret] = [:]
            for (n, name) in options.headers.enumerated() {
                headers[name] = try reader.read(prompt: "Value of protected header \(n + 1) of \(options.headers.count)")
            }
            let draft = ConnectionRecord(id: id, provider: provider, displayName: options.displayName ?? id, baseURL: baseURL,
                                         modelPreferences: ModelPreferences(defaultModel: options.model))
            try manager.configure(draft, apiKey: key, protectedHeaders: headers)
            output(named(try manager.status(of: id)))
        case "status":
            if let id = options.connection {
                output(named(try manager.status(of: id)))
            } else {
                let records = try manager.records()
                if records.isEmpty { output("no connections") }
                for record in records { output(try manager.status(of: record.id).description) }
            }
        case "rotate":
            let id = try options.requireConnection()
            var reader = SecretReader()
            let key = try reader.read(prompt: "New API key")
            switch try manager.rotate(id, newKey: key) {
            case .completed:
                output(named(try manager.status(of: id)))
            case .completedWithPendingCleanup(_, let pending, let failure):
                output(named(try manager.status(of: id)))
                errorOutput("warning: the old key \(pending) could not be deleted yet (\(failure)); run `keyshape-credentials cleanup`")
                return Exit.incomplete
            }
        case "delete":
            let id = try options.requireConnection()
            return report(try manager.delete(id))
        case "delete-all":
            guard options.confirmed else {
                throw UsageError(message: "delete-all removes every keyshape credential from the secret store; add --yes to confirm")
            }
            return report(try manager.deleteAll())
        case "cleanup":
            return report(try manager.completePendingCleanup())
        default:
            throw UsageError(message: "unknown command")
        }
        return Exit.success
    }

    private func report(_ report: DeletionReport) -> Int32 {
        if report.isComplete {
            output(report.description)
            return Exit.success
        }
        errorOutput(report.description + "; run `keyshape-credentials cleanup` to retry")
        return Exit.incomplete
    }

    static func defaultBaseURL(_ provider: ProviderKind) -> URL? {
        switch provider {
        case .anthropic: return URL(string: "https://api.anthropic.com")
        case .openAI: return URL(string: "https://api.openai.com/v1")
        default: return nil
        }
    }

    static let usage = """
    usage: keyshape-credentials [--store NAME] [--records PATH] COMMAND

      set CONNECTION [--provider anthropic|openai|ID] [--name NAME] [--base-url URL]
                     [--model MODEL] [--header NAME]...
                                 store a key (and protected header values), read
                                 from stdin, one per line, or from a no-echo prompt
      status [CONNECTION]        state and masked hint (••••abcd), never the key
      rotate CONNECTION          replace the key (read like `set`)
      delete CONNECTION          delete the connection and its secret-store items
      delete-all --yes           delete every keyshape item from the secret store
      cleanup                    retry deletions left pending by earlier failures

    Keys are never accepted as arguments. --store: \(PlatformCredentialStore.availableNames.joined(separator: ", "))
    (default \(PlatformCredentialStore.name)). Connection metadata (no secrets) is kept in
    --records, default $XDG_CONFIG_HOME/keyshape/connections.json.
    """
}
