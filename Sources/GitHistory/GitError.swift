/// What can go wrong talking to git. Messages name the git command and summarise git's
/// stderr (a few lines, control characters removed); they never carry object content.
public enum GitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `git` executable on PATH.
    case gitNotFound
    /// The path is not inside a git repository (or does not exist).
    case notARepository(path: String, detail: String)
    /// git could not be started.
    case spawnFailed(command: String, errno: Int32)
    /// git exited with a failure status.
    case commandFailed(command: String, status: Int32, stderr: String)
    /// git's output did not have the expected shape.
    case unexpectedOutput(command: String, detail: String)

    public var description: String {
        switch self {
        case .gitNotFound:
            return "git not found in PATH (keyshape runs the git binary to read repositories; install git or fix PATH)"
        case .notARepository(let path, let detail):
            return "\(path): not a git repository" + (detail.isEmpty ? "" : " (\(detail))")
        case .spawnFailed(let command, let code):
            return "\(command): could not start git (errno \(code))"
        case .commandFailed(let command, let status, let stderr):
            return "\(command) failed (exit \(status))" + (stderr.isEmpty ? "" : ": \(stderr)")
        case .unexpectedOutput(let command, let detail):
            return "\(command): unexpected output (\(detail))"
        }
    }

    /// The first lines of git's stderr, one line, at most 300 characters, printable ASCII
    /// and UTF-8 only.
    static func summarise(_ stderr: [UInt8]) -> String {
        let text = String(decoding: stderr, as: UTF8.self)
        var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("hint:") }
        if lines.count > 3 { lines = Array(lines.prefix(3)) + ["…"] }
        var joined = lines.joined(separator: " / ")
        joined = String(joined.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        if joined.count > 300 { joined = String(joined.prefix(300)) + "…" }
        return joined
    }
}

import Foundation
