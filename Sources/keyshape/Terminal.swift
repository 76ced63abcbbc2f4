import Foundation

/// The only place that writes to the process's streams.
enum Terminal {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    static func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
