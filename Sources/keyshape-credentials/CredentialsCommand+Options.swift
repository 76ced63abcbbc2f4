import CommandLineFlags
extension CredentialsCommand {
    /// Parsed arguments. Parse errors name the position of a bad argument,
    /// never its text, since it may be a key typed in the wrong place.
    struct Options {
        var command = ""
        var connection: String?
        var store: String?
        var recordsPath: String?
        var provider: String?
        var displayName: String?
        var baseURL: String?
        var model: String?
        var headers: [String] = []
        var confirmed = false

        static let commands: Set<String> = ["set", "status", "rotate", "delete", "delete-all", "cleanup", "help"]
        /// Flags that would carry a secret; rejected outright.
        static let secretFlags = ["--key", "--api-key", "--secret", "--token", "--password", "--value"]

        static let flags: [OptionFlag<Options>] = [
            OptionFlag("--store", value: "NAME", help: "credential store") { o, v in o.store = v },
            OptionFlag("--records", value: "FILE", help: "connection records file") { o, v in o.recordsPath = v },
            OptionFlag("--provider", value: "KIND", help: "provider") { o, v in o.provider = v },
            OptionFlag("--name", value: "NAME", help: "display name") { o, v in o.displayName = v },
            OptionFlag("--base-url", value: "URL", help: "endpoint base URL") { o, v in o.baseURL = v },
            OptionFlag("--model", value: "MODEL", help: "model name") { o, v in o.model = v },
            OptionFlag("--header", value: "NAME", help: "a protected header (repeatable)") { o, v in o.headers.append(v) },
            OptionFlag("--yes", help: "confirm delete-all") { o, _ in o.confirmed = true },
            OptionFlag("--help", short: "h", help: "show usage") { o, _ in o.command = "help" },
        ]

        static func parse(_ arguments: [String]) throws -> Options {
            // Positions, never the argument: it may be a key typed in the wrong place.
            func unknown(_ name: String, _ position: Int) -> Error {
                if secretFlags.contains(name) {
                    return UsageError(message: "\(name) is not supported: keys are never accepted on the command line; pipe them on stdin or type them at the prompt")
                }
                return UsageError(message: "unknown option at argument \(position)")
            }
            let parser = FlagParser(flags: flags, unknown: unknown, positional: { options, argument, position in
                // After `--` too, a dash is never a command or a connection id.
                if argument.hasPrefix("-") {
                    throw unknown(argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument, position)
                }
                if options.command.isEmpty {
                    guard commands.contains(argument) else { throw UsageError(message: "unknown command at argument \(position)") }
                    options.command = argument
                } else if options.connection == nil && options.command != "delete-all" && options.command != "cleanup" {
                    options.connection = argument
                } else {
                    throw UsageError(message: "unexpected argument \(position) (keys are read from stdin, never from arguments)")
                }
            })
            var options = Options()
            try parser.parse(arguments, into: &options)
            if options.command.isEmpty { throw UsageError(message: "missing command") }
            return options
        }

        func requireConnection() throws -> String {
            guard let connection else { throw UsageError(message: "\(command) needs a CONNECTION") }
            return connection
        }
    }
}
