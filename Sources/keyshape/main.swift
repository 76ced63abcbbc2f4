import Foundation
import Application
import ScanCore
import MatchEngine
import StandardStreams
import CommandLineFlags

// A finding's value must never reach a stream: no code path below prints scanned bytes.
// Reporters get findings (locations and hashes), and errors carry paths and messages.

signal(SIGPIPE, SIG_IGN)
// libarchive converts every zip entry's DOS time with mktime, and glibc with TZ unset
// re-reads /etc/localtime on each call: about 3% of the CPU of a scan of jars. Naming the
// same file once keeps the zone and lets glibc read it once. keyshape prints no local times.
if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
StandardStream.reserveStandardDescriptors()

func run() -> Int32 {
    // On Linux the Swift runtime reads the arguments from /proc/self/cmdline: in a root without
    // /proc it gets none, not even the program's name, and `keyshape scan DIR` would print the
    // usage and exit 0 for a scan never run. argv[0] is always there otherwise, so none at all
    // is this case, and an error (fail closed).
    guard !CommandLine.arguments.isEmpty else {
        Terminal.err("keyshape: error: cannot read the command line (is /proc mounted?)\n")
        return 2
    }
    let args = Array(CommandLine.arguments.dropFirst())
    do {
        let inv = try ArgumentParser.parse(args)
        if inv.helpRequested {
            Terminal.out(try ArgumentParser.helpText(inv))
            return 0
        }
        // The run's streams and command line, for the application layer (which writes none itself).
        let context = RunContext(
            out: Terminal.out, err: Terminal.err, redraw: Terminal.progress,
            stdoutIsTerminal: StandardStream.output.isTerminal, stderrIsTerminal: Terminal.stderrIsTerminal,
            stdoutFailed: { StandardStream.output.failure != nil },
            // This executable, for a hook to call.
            executablePath: {
                if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
                return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
            },
            flagNames: ArgumentParser.flagNames(args))
        return try CommandTable.spec(inv.command).run(inv, context)
    } catch let e as UsageError {
        Terminal.err("keyshape: error: \(e.message)\n")
        Terminal.err("Run `keyshape --help` for usage.\n")
    } catch let e as RuleLoadError {
        Terminal.err("keyshape: error: \(e)\n")
    } catch {
        Terminal.err("keyshape: error: \(error)\n")
    }
    return 2
}

exit(Terminal.finish(run()))
