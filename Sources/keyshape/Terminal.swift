import Foundation
import ScanCore
import StandardStreams

/// The only place that writes to the process's streams.
///
/// Writes never trap (see StandardStream). A failed stdout is remembered and decides the
/// exit status in `finish`; a failed stderr is ignored, since there is nowhere left to say so.
enum Terminal {
    /// Report or listing text, written as it is: reporters escape what came from outside.
    static func out(_ text: String) { StandardStream.output.write(text) }

    /// One line on stdout that keyshape composed around a name (a path): escaped like `err`.
    static func outLine(_ text: String) { StandardStream.output.write(DisplayText.escaped(text) + "\n") }

    /// One or more stderr lines (errors, warnings, notes, the summary). Everything but the
    /// final newline goes through DisplayText.escaped, so a file, section or rule name in a
    /// message can neither start a line of its own nor drive the terminal, whichever call
    /// site composed it.
    static func err(_ text: String) {
        var body = Substring(text)
        var newlines = 0
        while body.last == "\n" { body = body.dropLast(); newlines += 1 }
        StandardStream.error.write(DisplayText.escaped(String(body)) + String(repeating: "\n", count: newlines))
    }

    /// The progress line's redraw: keyshape's own counts and the terminal codes that
    /// overwrite the line in place, written raw.
    static func progress(_ text: String) { StandardStream.error.write(text) }

    static var stderrIsTerminal: Bool { StandardStream.error.isTerminal }

    /// The exit status once a command is done, given what happened to stdout. A reader that
    /// closed the pipe (`| head -1`) chose to stop reading: the command's own status stands.
    /// Any other failure (a full disk, a closed descriptor) means the report was not
    /// delivered: one line on stderr and exit 2, fail closed. Files the command wrote
    /// (`--output`, `--write-baseline`) were written before this is asked.
    static func finish(_ status: Int32) -> Int32 {
        guard let failure = StandardStream.output.failure, !failure.isBrokenPipe else { return status }
        err("keyshape: error: cannot write to standard output: \(failure)\n")
        return 2
    }
}
