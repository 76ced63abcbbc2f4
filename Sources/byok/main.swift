import Foundation
import ProviderClient

// byok: a bring-your-own-key demo of ProviderClient. The key is read from stdin or a
// no-echo prompt and kept in a credential store; nothing prints it.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, command != "--help", command != "-h", command != "help" else {
    FileHandle.standardOutput.write(Data(ChatOptions.help.utf8))
    exit(arguments.isEmpty ? 2 : 0)
}
guard command == "chat" else {
    FileHandle.standardError.write(Data("byok: unknown command\n\(ChatOptions.help)".utf8))
    exit(2)
}
do {
    let options = try ChatOptions(arguments: Array(arguments.dropFirst()))
    exit(await ChatCommand(options: options).run())
} catch {
    FileHandle.standardError.write(Data("byok: \(Redactor.fallbackOnly.redact(String(describing: error)))\n".utf8))
    exit(2)
}
