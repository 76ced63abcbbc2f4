import CommandLineFlags
import CredentialStore
import Foundation
import ProviderClient

/// `byok chat` options. A small table drives parsing and `--help`.
struct ChatOptions {
    var connection = "demo"
    var provider = ProviderKind.anthropic
    var baseURL: URL?
    var api: ProviderAPI?
    var authentication: AuthenticationScheme?
    var model: String?
    var message: String?
    var stream = true
    var store = "memory"
    var metadataFile: String?
    var confirm: String?
    var rules: [String] = []
    var logFile: String?
    var verbose = false
    var publicHeaders: [String: String] = [:]
    var protectedHeaders: [String] = []

    static let flags: [OptionFlag<ChatOptions>] = [
        OptionFlag("--connection", value: "ID", help: "connection id (default: demo)") { o, v in o.connection = v },
        OptionFlag("--provider", value: "KIND", help: "anthropic, openai, or any name for a compatible endpoint (default: anthropic)") { o, v in
            o.provider = ProviderKind(v)
        },
        OptionFlag("--base-url", value: "URL", help: "endpoint base URL (default: the provider's API)") { o, v in
            guard let url = URL(string: v) else { throw UsageError(message: "--base-url is not a URL") }
            o.baseURL = url
        },
        OptionFlag("--api", value: "API", help: "anthropic-messages or openai-chat-completions (default: by provider)") { o, v in
            guard let parsed = ProviderAPI(rawValue: v) else { throw UsageError(message: "unknown --api") }
            o.api = parsed
        },
        OptionFlag("--auth", value: "SCHEME", help: "x-api-key, bearer, header:NAME or none (default: by API)") { o, v in
            guard let parsed = AuthenticationScheme(text: v) else { throw UsageError(message: "unknown --auth") }
            o.authentication = parsed
        },
        OptionFlag("--model", value: "MODEL", help: "model name (required)") { o, v in o.model = v },
        OptionFlag("--message", value: "TEXT", help: "the message to send (required)") { o, v in o.message = v },
        OptionFlag("--no-stream", help: "wait for the whole answer instead of streaming it") { o, _ in o.stream = false },
        OptionFlag("--store", value: "NAME", help: "credential store: \(PlatformCredentialStore.availableNames.joined(separator: ", ")) (default: memory)") { o, v in
            o.store = v
        },
        OptionFlag("--metadata", value: "FILE", help: "keep connection metadata in this JSON file (default: in memory)") { o, v in o.metadataFile = v },
        OptionFlag("--confirm", value: "ORIGIN", help: "confirm sending credentials to ORIGIN (scheme://host:port) without asking") { o, v in o.confirm = v },
        OptionFlag("--rules", value: "PATH", help: "redact logs with these keyshape rule files too (repeatable)") { o, v in o.rules.append(v) },
        OptionFlag("--log", value: "FILE", help: "append the client's redacted log as JSON lines to FILE") { o, v in o.logFile = v },
        OptionFlag("--verbose", help: "write the redacted log to stderr") { o, _ in o.verbose = true },
        OptionFlag("--header", value: "NAME=VALUE", help: "a public custom header (repeatable)") { o, v in
            let pair = v.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw UsageError(message: "--header needs NAME=VALUE") }
            o.publicHeaders[pair[0]] = pair[1]
        },
        OptionFlag("--protected-header", value: "NAME", help: "a protected custom header; its value is read like the key (repeatable)") { o, v in
            o.protectedHeaders.append(v)
        },
    ]

    static var help: String {
        var text = """
        usage: byok chat --model MODEL --message TEXT [options]

        Stores an API key (read from stdin or a no-echo prompt, never from arguments) in a
        credential store, sends one message and streams the answer to stdout.

        """
        for flag in flags {
            let left = flag.name + (flag.value.map { " " + $0 } ?? "")
            text += "  " + left.padding(toLength: 26, withPad: " ", startingAt: 0) + flag.help + "\n"
        }
        return text
    }

    /// `byok chat FLAGS`: `arguments` is the whole command line after the program name,
    /// read from `start` (after `chat`), so errors count positions on the whole line.
    init(arguments: [String], from start: Int) throws {
        // Never the option itself: it may be a key pasted in the wrong place.
        let parser = FlagParser(flags: Self.flags, unknown: { _, position in
            UsageError(message: "unknown option at argument \(position) (see byok --help)")
        })
        try parser.parse(arguments, from: start, into: &self)
        guard model != nil else { throw UsageError(message: "--model is required") }
        guard message != nil else { throw UsageError(message: "--message is required") }
    }

    /// Words of byok itself, which messages may print even when they came as arguments;
    /// anything else an argument said is scrubbed from messages (ArgumentEcho).
    static var vocabulary: Set<String> {
        Set(["chat", "anthropic", "openai", "x-api-key", "bearer", "none"] + ProviderAPI.allCases.map(\.rawValue)
            + PlatformCredentialStore.availableNames)
    }
    /// Flags whose values say where things go (files, the endpoint and the origin the user
    /// confirms), which messages name.
    static let placeFlags: Set<String> = ["--base-url", "--confirm", "--metadata", "--rules", "--log"]

    var resolvedBaseURL: URL {
        if let baseURL { return baseURL }
        return provider == .openAI ? URL(string: "https://api.openai.com/v1")! : URL(string: "https://api.anthropic.com")!
    }
}
