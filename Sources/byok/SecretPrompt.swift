import CredentialStore
import Foundation
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads secrets from piped stdin or a no-echo terminal prompt; never from arguments,
/// which every user on the machine can read through `ps`.
struct SecretPrompt {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var pipedLines: [String]?

    init() {
        if isatty(STDIN_FILENO) == 0 {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            pipedLines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }
    }

    var isInteractive: Bool { pipedLines == nil }

    mutating func read(_ prompt: String) throws -> Secret {
        if var lines = pipedLines {
            guard !lines.isEmpty else { throw Failure(description: "no \(prompt) on standard input") }
            let value = lines.removeFirst()
            pipedLines = lines
            return Secret(value)
        }
        StandardStream.error.write("\(prompt): ")
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw Failure(description: "cannot read from the terminal") }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else { throw Failure(description: "cannot turn off echo") }
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            StandardStream.error.write("\n")
        }
        guard let line = Swift.readLine(strippingNewline: true) else { throw Failure(description: "no \(prompt) entered") }
        return Secret(line.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A yes/no question on the terminal; false when there is no terminal to ask on.
    func confirm(_ question: String) -> Bool {
        guard isInteractive else { return false }
        StandardStream.error.write("\(question) [y/N] ")
        return Swift.readLine()?.lowercased().hasPrefix("y") ?? false
    }
}
