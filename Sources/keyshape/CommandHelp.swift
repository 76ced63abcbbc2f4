import Application

/// What `keyshape COMMAND --help` says beside the command's flags (which come from the flag
/// table): how it is called, what it does, and its exit statuses.
struct CommandHelp {
    let usage: [String]
    let summary: String
    let exits: [(status: String, meaning: String)]

    static let scanning: [(status: String, meaning: String)] = [
        ("0", "the scan completed and nothing was reported"),
        ("1", "findings were reported (or the --exit-code N given)"),
        ("2", "usage or configuration error, or the scan could not finish (an unreadable path, a file over --max-file-size, git failed); the report still lists what was found and an error for each problem"),
    ]

    /// A command without a page in the table (a hidden one, such as a generator) gets a plain page.
    static func of(_ command: Invocation.Command) -> CommandHelp {
        CommandTable.spec(command).help ?? CommandHelp(usage: ["keyshape \(command.rawValue)"], summary: "", exits: [("0", "success"), ("2", "usage error")])
    }
}
