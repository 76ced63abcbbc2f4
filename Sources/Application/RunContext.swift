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
    /// `--color auto` colours stdout only when it is a terminal.
    public let stdoutIsTerminal: Bool
    /// The command line's flag names (never their values), recorded with a datastore run.
    public let flagNames: [String]
    /// scan, history, audit with `--datastore DB`: the run's recorder, set by
    /// `ScanSetup.prepare` once the run is recorded as started; nil otherwise.
    public internal(set) var recorder: DatastoreRecorder?

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdoutIsTerminal: Bool, flagNames: [String]) {
        self.out = out
        self.err = err
        self.stdoutIsTerminal = stdoutIsTerminal
        self.flagNames = flagNames
    }

    /// A context with the same streams and command line and no recorder, for a run this one
    /// makes on the side (`sweep`'s check of a repository's last run).
    public func forAnotherRun() -> RunContext {
        RunContext(out: out, err: err, stdoutIsTerminal: stdoutIsTerminal, flagNames: flagNames)
    }

    /// A warning line: `keyshape: FILE:LINE:COL: warning: …` when the text already places
    /// and labels itself (a config or rules file's warnings do), else `keyshape: warning: …`
    /// (never both labels, as `warning: …: warning:` printed before).
    public static func warningLine(_ text: String) -> String {
        text.contains(": warning: ") || text.hasPrefix("warning: ") ? "keyshape: \(text)\n" : "keyshape: warning: \(text)\n"
    }

    public func warn(_ text: String) { err(Self.warningLine(text)) }
}
