import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A reader that closed the pipe stops the output, not the command; a write error is a
// value, never a trap (StandardStream).
signal(SIGPIPE, SIG_IGN)
StandardStream.reserveStandardDescriptors()
var status = CredentialsCommand(arguments: Array(CommandLine.arguments.dropFirst())).run()
// Output that could not be written (a full disk, a closed stdout) is a failure, reported
// in words; a closed pipe keeps the command's status.
if let failure = StandardStream.output.failure, !failure.isBrokenPipe {
    StandardStream.error.write("keyshape-credentials: cannot write to standard output: \(failure)\n")
    if status == CredentialsCommand.Exit.success { status = CredentialsCommand.Exit.failure }
}
exit(status)
