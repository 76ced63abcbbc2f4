#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(CredentialsCommand(arguments: Array(CommandLine.arguments.dropFirst())).run())
