import CredentialStore
import Foundation
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads secrets from stdin (piped) or from a no-echo prompt on the
/// terminal. Never from arguments: argv is visible to every user through
/// `ps` and lands in shell history.
struct SecretReader {
    enum ReadError: Error, CustomStringConvertible {
        case endOfInput(String)
        case terminal(String)

        var description: String {
            switch self {
            case .endOfInput(let what): return "no \(what) on standard input"
            case .terminal(let reason): return "cannot read from the terminal: \(reason)"
            }
        }
    }

    private var pipedLines: [String]?

    /// Piped input is read whole up front so several values (key, then one
    /// line per protected header) can come from one pipe.
    init() {
        if isatty(STDIN_FILENO) == 0 {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let text = String(decoding: data, as: UTF8.self)
            pipedLines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
    }

    mutating func read(prompt: String) throws -> Secret {
        if var lines = pipedLines {
            while let first = lines.first, first.isEmpty { lines.removeFirst() }
            guard !lines.isEmpty else {
                pipedLines = lines
                throw ReadError.endOfInput(prompt)
            }
            let value = lines.removeFirst()
            pipedLines = lines
            return Secret(value)
        }
        return try Secret(Self.readWithoutEcho(prompt: prompt).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func readWithoutEcho(prompt: String) throws -> String {
        StandardStream.error.write("\(prompt): ")
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw ReadError.terminal(String(cString: strerror(errno))) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else { throw ReadError.terminal(String(cString: strerror(errno))) }
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            StandardStream.error.write("\n")
        }
        guard let line = Swift.readLine(strippingNewline: true) else { throw ReadError.endOfInput(prompt) }
        return line
    }
}
