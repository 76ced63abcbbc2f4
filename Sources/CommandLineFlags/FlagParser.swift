/// A flag of a command line's table: its name, one-letter form, value placeholder (nil for a
/// switch), help line, and what it does to the options being parsed.
public protocol CommandLineFlag {
    associatedtype Options
    var name: String { get }
    var short: Character? { get }
    var value: String? { get }
    var help: String { get }
    var apply: (inout Options, String) throws -> Void { get }
}

/// A flag for a table that needs nothing more (keyshape-credentials, byok).
public struct OptionFlag<Options>: CommandLineFlag {
    public let name: String
    public let short: Character?
    public let value: String?
    public let help: String
    public let apply: (inout Options, String) throws -> Void

    public init(_ name: String, short: Character? = nil, value: String? = nil, help: String,
                apply: @escaping (inout Options, String) throws -> Void) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.apply = apply
    }
}

/// Reads flags and positional arguments from a command line with a table of flags: the one
/// argument loop of keyshape, keyshape-credentials and byok. `--name value`, `--name=value`,
/// `-x value` and `-xVALUE`; `--` ends the flags; `-` alone is a positional argument.
///
/// What a tool says about an argument it does not know is its own (`unknown`, `positional`):
/// an argument may be a key pasted in the wrong place, so messages name its position.
public struct FlagParser<Flag: CommandLineFlag> {
    public let flags: [Flag]
    /// An argument that starts with `-` and names no flag (its name before any `=` or
    /// attached value, and its 1-based position on the command line).
    public var unknown: (_ name: String, _ position: Int) -> Error
    /// A positional argument and its position; the default refuses it as `unknown` does.
    public var positional: ((inout Flag.Options, String, Int) throws -> Void)?
    /// A flag found, before its value is read (keyshape: whether it applies to the command).
    public var accept: (Flag) throws -> Void = { _ in }

    public init(flags: [Flag], unknown: @escaping (_ name: String, _ position: Int) -> Error,
                positional: ((inout Flag.Options, String, Int) throws -> Void)? = nil) {
        self.flags = flags
        self.unknown = unknown
        self.positional = positional
    }

    /// Reads `arguments` from index `start`, applying each flag to `options` in order.
    /// - Returns: the names of the flags given, in order (never a value).
    @discardableResult
    public func parse(_ arguments: [String], from start: Int = 0, into options: inout Flag.Options) throws -> [String] {
        var names: [String] = []
        var index = start
        var onlyPositionals = false
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            let position = index
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                guard let positional else { throw unknown(arg, position) }
                try positional(&options, arg, position)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = arg
            var attached: String? = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                attached = String(arg[arg.index(after: eq)...])
            } else if !arg.hasPrefix("--") && arg.count > 2 {
                // -j4 style
                name = String(arg.prefix(2))
                attached = String(arg.dropFirst(2))
            }
            let found: Flag? = name.hasPrefix("--")
                ? flags.first { $0.name == name }
                : flags.first { $0.short.map { "-\($0)" } == name }
            guard let flag = found else { throw unknown(name, position) }
            try accept(flag)
            names.append(flag.name)
            if let placeholder = flag.value {
                guard let value = attached ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError(message: "\(flag.name) needs a value (\(placeholder))")
                }
                if attached == nil { index += 1 }
                try flag.apply(&options, value)
            } else {
                if attached != nil { throw UsageError(message: "\(flag.name) takes no value") }
                try flag.apply(&options, "")
            }
        }
        return names
    }

    /// Each flag's help line, the name and value padded to `width`.
    public func helpLines(width: Int) -> String {
        flags.map { flag in
            let left = flag.name + (flag.value.map { " " + $0 } ?? "")
            return "  " + left + String(repeating: " ", count: max(0, width - left.count)) + flag.help + "\n"
        }.joined()
    }
}
