import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a child process did.
public struct ChildOutcome: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
    /// It ran past its time limit and was stopped.
    public var timedOut: Bool

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs an executable, never through a shell. Stdin is `input` (or /dev/null); stdin is
/// written and both output streams are drained on their own threads, so no pipe can fill
/// up and stall the child or the test; the child is stopped after `timeout` seconds.
public func runChild(_ executable: URL, _ arguments: [String], cwd: String? = nil, environment: [String: String]? = nil,
                     input: Data? = nil, timeout: TimeInterval = 300) throws -> ChildOutcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let outBox = Box(), errBox = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outBox.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    if let input {
        let writer = stdin.fileHandleForWriting
        group.enter()
        DispatchQueue.global().async {
            writer.write(input)
            try? writer.close()
            group.leave()
        }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    let timedOut = process.isRunning
    if timedOut { process.terminate() }
    process.waitUntilExit()
    group.wait()
    return ChildOutcome(status: process.terminationStatus, stdout: outBox.data, stderr: errBox.data, timedOut: timedOut)
}

/// Executables SwiftPM built next to the running test bundle.
public enum BuiltProduct {
    public static func url(_ name: String) -> URL? {
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0])
        var directories = [arg0.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        #if os(macOS)
        if let xctest = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            directories.insert(xctest.bundleURL.deletingLastPathComponent(), at: 0)
        }
        #endif
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }
}
