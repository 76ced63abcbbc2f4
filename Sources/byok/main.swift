import Foundation
import ProviderClient
import StandardStreams

// byok: a bring-your-own-key demo of ProviderClient. The key is read from stdin or a
// no-echo prompt and kept in a credential store; nothing prints it, nor the arguments.
signal(SIGPIPE, SIG_IGN)
StandardStream.reserveStandardDescriptors()

func run() async -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first, command != "--help", command != "-h", command != "help" else {
        StandardStream.output.write(ChatOptions.help)
        return arguments.isEmpty ? 2 : 0
    }
    guard command == "chat" else {
        StandardStream.error.write("byok: unknown command\n\(ChatOptions.help)")
        return 2
    }
    let echo = ArgumentEcho(arguments: arguments, vocabulary: ChatOptions.vocabulary, pathFlags: ChatOptions.placeFlags)
    do {
        let options = try ChatOptions(arguments: arguments, from: 1)
        return await ChatCommand(options: options, echo: echo).run()
    } catch {
        StandardStream.error.write(echo.scrub("byok: \(Redactor.fallbackOnly.redact(String(describing: error)))") + "\n")
        return 2
    }
}

var status = await run()
// An answer that could not be written (a full disk, a closed stdout) is a failure, said in
// words; a reader that closed the pipe chose to stop, and the status stands.
if let failure = StandardStream.output.failure, !failure.isBrokenPipe {
    StandardStream.error.write("byok: cannot write to standard output: \(failure)\n")
    if status == 0 { status = 1 }
}
exit(status)
