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

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let flags: [(name: String, value: String?, help: String)] = [
        ("--connection", "ID", "connection id (default: demo)"),
        ("--provider", "KIND", "anthropic, openai, or any name for a compatible endpoint (default: anthropic)"),
        ("--base-url", "URL", "endpoint base URL (default: the provider's API)"),
        ("--api", "API", "anthropic-messages or openai-chat-completions (default: by provider)"),
        ("--auth", "SCHEME", "x-api-key, bearer, header:NAME or none (default: by API)"),
        ("--model", "MODEL", "model name (required)"),
        ("--message", "TEXT", "the message to send (required)"),
        ("--no-stream", nil, "wait for the whole answer instead of streaming it"),
        ("--store", "NAME", "credential store: \(PlatformCredentialStore.availableNames.joined(separator: ", ")) (default: memory)"),
        ("--metadata", "FILE", "keep connection metadata in this JSON file (default: in memory)"),
        ("--confirm", "ORIGIN", "confirm sending credentials to ORIGIN (scheme://host:port) without asking"),
        ("--rules", "PATH", "redact logs with these keyshape rule files too (repeatable)"),
        ("--log", "FILE", "append the client's redacted log as JSON lines to FILE"),
        ("--verbose", nil, "write the redacted log to stderr"),
        ("--header", "NAME=VALUE", "a public custom header (repeatable)"),
        ("--protected-header", "NAME", "a protected custom header; its value is read like the key (repeatable)"),
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

    init(arguments: [String]) throws {
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--connection": connection = try value(flag)
            case "--provider": provider = ProviderKind(try value(flag))
            case "--base-url":
                guard let url = URL(string: try value(flag)) else { throw UsageError(description: "--base-url is not a URL") }
                baseURL = url
            case "--api":
                guard let parsed = ProviderAPI(rawValue: try value(flag)) else { throw UsageError(description: "unknown --api") }
                api = parsed
            case "--auth":
                guard let parsed = AuthenticationScheme(text: try value(flag)) else { throw UsageError(description: "unknown --auth") }
                authentication = parsed
            case "--model": model = try value(flag)
            case "--message": message = try value(flag)
            case "--no-stream": stream = false
            case "--store": store = try value(flag)
            case "--metadata": metadataFile = try value(flag)
            case "--confirm": confirm = try value(flag)
            case "--rules": rules.append(try value(flag))
            case "--log": logFile = try value(flag)
            case "--verbose": verbose = true
            case "--header":
                let pair = try value(flag).split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { throw UsageError(description: "--header needs NAME=VALUE") }
                publicHeaders[pair[0]] = pair[1]
            case "--protected-header": protectedHeaders.append(try value(flag))
            // Never the option itself: it may be a key pasted in the wrong place.
            default: throw UsageError(description: "unknown option at argument \(index + 2) (see byok --help)")
            }
            index += 1
        }
        guard model != nil else { throw UsageError(description: "--model is required") }
        guard message != nil else { throw UsageError(description: "--message is required") }
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
