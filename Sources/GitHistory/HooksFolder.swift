extension Git {
    /// The folder git runs this repository's hooks from (`rev-parse --git-path hooks`), for
    /// `hook install`. It is the one git call that must read more than the repository: a
    /// `core.hooksPath` in the user's global or the system config is where git looks for
    /// hooks, so those two files are read here. Everything else is the runner's isolation
    /// (no caller `GIT_*` variable, `core.fsmonitor=false` and the rest outranking every
    /// config file), less the `core.hooksPath=/dev/null` override, which would answer
    /// `/dev/null` instead of the folder asked for. `rev-parse` runs no configured program
    /// either way; reading config files executes nothing.
    ///
    /// - Returns: an absolute path (git prints a relative core.hooksPath relative to the work
    ///   tree's top, where `-C` puts it).
    /// - Throws: `GitError` when git cannot start or fails; never git's own words, which can
    ///   quote the repository's config.
    public func hooksFolder() throws -> String {
        let env = environment.filter { !$0.hasPrefix("GIT_CONFIG_NOSYSTEM=") && !$0.hasPrefix("GIT_CONFIG_GLOBAL=") }
        var config: [String] = []
        for pair in stride(from: 0, to: configArgs.count - 1, by: 2) where configArgs[pair + 1] != "core.hooksPath=/dev/null" {
            config += [configArgs[pair], configArgs[pair + 1]]
        }
        let command = "git rev-parse --git-path"
        let r = try Git.capture(executable: executable, arguments: ["--no-pager", "-C", root] + config + ["rev-parse", "--git-path", "hooks"],
                                environment: env, command: command, stallLimit: stallLimit)
        guard r.status == 0 else { throw GitError.commandFailed(command: command, status: r.status, reason: r.reason) }
        // One line; only its newline is git's. A folder name may itself end in spaces.
        var out = r.stdout
        if out.last == 0x0A { out.removeLast() }
        guard !out.isEmpty, !out.contains(0x0A), !out.contains(0) else {
            throw GitError.unexpectedOutput(command: command, detail: "not one path")
        }
        let path = String(decoding: out, as: UTF8.self)
        return path.hasPrefix("/") ? path : root + "/" + path
    }
}
