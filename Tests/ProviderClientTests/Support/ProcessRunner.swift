import Foundation
import TestSupport
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
    let child = try runChild(executable, arguments, environment: environment, input: stdin.map { Data($0.utf8) }, timeout: timeout)
    if child.timedOut { XCTFail("\(executable.lastPathComponent) timed out", file: file, line: line) }
    return ProcessResult(status: child.status, stdout: child.stdoutText, stderr: child.stderrText)
}
