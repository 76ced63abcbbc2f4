import Foundation

/// The git the tests build their fixture repositories with: the binary on PATH, run with no
/// system or global config and none of the caller's GIT_* variables, never through a shell.
/// Its commands stop after `timeout` seconds (600 by default: only a hang reaches it, never a
/// big fixture on a loaded machine).
public enum TestGit {
    public static let path: String = {
        for d in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(d)/git"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return "/usr/bin/git"
    }()

    /// The isolated environment, plus `extra` (dates, identities).
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// A git command that did not exit 0 (or ran past its time).
    public struct Failure: Error, CustomStringConvertible {
        public var arguments: [String]
        public var outcome: ChildOutcome
        public var description: String {
            "git \(arguments.joined(separator: " ")) " + (outcome.timedOut ? "timed out" : "exited \(outcome.status)") + ": \(outcome.stderrText)"
        }
    }

    /// Runs `git -C repo args`; its outcome whatever its status.
    public static func outcome(_ repo: String, _ args: [String], input: Data? = nil, environment extra: [String: String] = [:],
                               timeout: TimeInterval = 600) throws -> ChildOutcome {
        try runChild(URL(fileURLWithPath: path), ["-C", repo] + args, environment: environment(extra), input: input, timeout: timeout)
    }

    /// Runs `git -C repo args`; its stdout without surrounding white space. Throws `Failure`
    /// when git does not exit 0.
    @discardableResult
    public static func run(_ repo: String, _ args: [String], input: Data? = nil, environment extra: [String: String] = [:],
                           timeout: TimeInterval = 600) throws -> String {
        let child = try outcome(repo, args, input: input, environment: extra, timeout: timeout)
        guard child.status == 0, !child.timedOut else { throw Failure(arguments: args, outcome: child) }
        return child.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the folder `repo` (and its parents) and an empty repository in it on branch `main`.
    public static func initRepository(_ repo: String, bare: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        try run(repo, ["init", "-q", "-b", "main"] + (bare ? ["--bare"] : []))
    }
}
