import ScanCore

/// One command's run, as the application layer sees it: where its text goes, what its
/// command line was, and the datastore recorder a scanning command opened. Passed to every
/// function here in place of process-wide state, so two runs in one process (a test, `sweep`)
/// cannot see each other's recorder.
///
/// The executable makes one from its standard streams; this layer never writes to a stream
/// itself.
public final class RunContext {
    /// Report text for stdout, written as it is: reporters escape what came from outside.
    public let out: (String) -> Void
    /// Lines for stderr (errors, warnings, notes, the summary); the writer escapes them.
    public let err: (String) -> Void
    /// The progress line's redraws: keyshape's own counts and terminal codes, written raw.
    public let redraw: (String) -> Void
    /// `--color auto` colours stdout only when it is a terminal.
    public let stdoutIsTerminal: Bool
    /// Without `--progress`/`--no-progress`, a progress line is drawn when stderr is a terminal.
    public let stderrIsTerminal: Bool
    /// Whether a write to stdout has failed (a closed pipe among others): a streamed scan
    /// whose reader went away stops.
    public let stdoutFailed: () -> Bool
    /// The keyshape executable that is running, which a hook calls.
    public let executablePath: () -> String
    /// The command line's flag names (never their values), recorded with a datastore run.
    public let flagNames: [String]
    /// scan, history, audit with `--datastore DB`: the run's recorder, set by
    /// `ScanSetup.prepare` once the run is recorded as started; nil otherwise.
    public internal(set) var recorder: DatastoreRecorder?

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, redraw: @escaping (String) -> Void,
                stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdoutFailed: @escaping () -> Bool,
                executablePath: @escaping () -> String, flagNames: [String]) {
        self.out = out
        self.err = err
        self.redraw = redraw
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdoutFailed = stdoutFailed
        self.executablePath = executablePath
        self.flagNames = flagNames
    }

    /// A line composed around a name (a path), escaped as stderr's lines are.
    public func outLine(_ text: String) { out(DisplayText.escaped(text) + "\n") }

    /// A context with the same streams and command line and no recorder, for a run this one
    /// makes on the side (`sweep`'s check of a repository's last run).
    public func forAnotherRun() -> RunContext {
        RunContext(out: out, err: err, redraw: redraw, stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal,
                   stdoutFailed: stdoutFailed, executablePath: executablePath, flagNames: flagNames)
    }

    /// A warning line: `keyshape: FILE:LINE:COL: warning: …` when the text already places
    /// and labels itself (a config or rules file's warnings do), else `keyshape: warning: …`
    /// (never both labels, as `warning: …: warning:` printed before).
    public static func warningLine(_ text: String) -> String {
        text.contains(": warning: ") || text.hasPrefix("warning: ") ? "keyshape: \(text)\n" : "keyshape: warning: \(text)\n"
    }

    public func warn(_ text: String) { err(Self.warningLine(text)) }
}
