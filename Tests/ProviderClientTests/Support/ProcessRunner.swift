import Foundation
import XCTest

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs an executable (never through a shell) with optional stdin, bounded in time.
@discardableResult
func runProcess(_ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
                timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    }
    final class Box: @unchecked Sendable { var data = Data() }
    let outBox = Box(), errBox = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outBox.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        process.terminate()
        XCTFail("\(executable.lastPathComponent) timed out", file: file, line: line)
    }
    process.waitUntilExit()
    group.wait()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
                         stderr: String(decoding: errBox.data, as: UTF8.self))
}
