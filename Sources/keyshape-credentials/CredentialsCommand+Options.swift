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

        static func parse(_ arguments: [String]) throws -> Options {
            var options = Options()
            var index = 0
            func value(for flag: String) throws -> String {
                index += 1
                guard index < arguments.count else { throw UsageError(description: "\(flag) needs a value") }
                return arguments[index]
            }
            while index < arguments.count {
                let argument = arguments[index]
                let flag = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
                if secretFlags.contains(flag) {
                    throw UsageError(description: "\(flag) is not supported: keys are never accepted on the command line; pipe them on stdin or type them at the prompt")
                }
                switch argument {
                case "--store": options.store = try value(for: argument)
                case "--records": options.recordsPath = try value(for: argument)
                case "--provider": options.provider = try value(for: argument)
                case "--name": options.displayName = try value(for: argument)
                case "--base-url": options.baseURL = try value(for: argument)
                case "--model": options.model = try value(for: argument)
                case "--header": options.headers.append(try value(for: argument))
                case "--yes": options.confirmed = true
                case "-h", "--help": options.command = "help"
                default:
                    if argument.hasPrefix("-") {
                        throw UsageError(description: "unknown option at argument \(index + 1)")
                    } else if options.command.isEmpty {
                        guard commands.contains(argument) else { throw UsageError(description: "unknown command at argument \(index + 1)") }
                        options.command = argument
                    } else if options.connection == nil && options.command != "delete-all" && options.command != "cleanup" {
                        options.connection = argument
                    } else {
                        throw UsageError(description: "unexpected argument \(index + 1) (keys are read from stdin, never from arguments)")
                    }
                }
                index += 1
            }
            if options.command.isEmpty { throw UsageError(description: "missing command") }
            return options
        }

        func requireConnection() throws -> String {
            guard let connection else { throw UsageError(description: "\(command) needs a CONNECTION") }
            return connection
        }
    }
}
