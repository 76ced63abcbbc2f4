// The release build (`--static-swift-stdlib`, every target) compiles TestSupport too, and has
// no XCTest module to link statically: only test builds see this file.
#if canImport(XCTest)
import Foundation
import XCTest

/// What a test reads of a finished child: its status and both streams, as text and as bytes.
/// The CLI, datastore and provider-client tests all take this one shape.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data

    public init(_ outcome: ChildOutcome) {
        status = outcome.status
        stdout = outcome.stdoutText
        stderr = outcome.stderrText
        stdoutData = outcome.stdout
    }

    /// The top-level object of a JSON report on stdout (`--format json`); nil when stdout is
    /// not one.
    public var report: [String: Any]? { JSONReport.object(stdoutData) }

    /// Each line of a JSONL report on stdout that is a JSON object.
    public var reportLines: [[String: Any]] { JSONReport.lines(stdout) }
}

/// Runs `executable` (never through a shell) with stdin from `input` or /dev/null, both
/// streams collected; a run past `timeout` seconds is stopped and fails the test.
@discardableResult
public func runProcess(_ executable: URL, _ arguments: [String], cwd: String? = nil, environment: [String: String]? = nil,
                       input: Data? = nil, timeout: TimeInterval = 300,
                       file: StaticString = #filePath, line: UInt = #line) throws -> ProcessRun {
    let child = try runChild(executable, arguments, cwd: cwd, environment: environment, input: input, timeout: timeout)
    if child.timedOut { XCTFail("\(executable.lastPathComponent) \(arguments.first ?? "") timed out", file: file, line: line) }
    return ProcessRun(child)
}

/// `runProcess` of an executable given by path, with no stdin; a failure to start traps the test.
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String], cwd: String? = nil, env: [String: String]? = nil,
                       timeout: TimeInterval = 300, file: StaticString = #filePath, line: UInt = #line) -> ProcessRun {
    try! runProcess(URL(fileURLWithPath: executable), arguments, cwd: cwd, environment: env, timeout: timeout, file: file, line: line)
}

extension ProcessRun {
    /// The JSON report's `findings`; [] when stdout is no report or it has none.
    public var findings: [[String: Any]] { JSONReport.list("findings", in: stdoutData) }

    /// The JSON report's error entries (`errors`); [] when stdout is no report or it has none.
    public var errorEntries: [[String: Any]] { JSONReport.list("errors", in: stdoutData) }

    /// The findings located in the file `path` (as the report prints it).
    public func findings(in path: String) -> [[String: Any]] {
        findings.filter { ($0["location"] as? [String: Any])?["path"] as? String == path }
    }
}

/// `runProcess` under a small Python parent that reports the peak resident size of its only
/// child (getrusage of its children), in KiB; -1 when it could not be read. The test process's
/// own getrusage(RUSAGE_CHILDREN) is no measure of one run: it is the largest of every child
/// the whole test bundle has waited for (CI saw 390 MiB there from an earlier suite's child).
public func runMeasuringPeakResident(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300,
                                     file: StaticString = #filePath, line: UInt = #line) -> (run: ProcessRun, peakKiB: Int) {
    let wrapper = """
        import resource, subprocess, sys
        code = subprocess.run(sys.argv[1:]).returncode
        sys.stderr.write("\\nmaxrss-kib=%d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(code)
        """
    var run = runProcess("/usr/bin/env", ["python3", "-c", wrapper, executable] + arguments, timeout: timeout, file: file, line: line)
    var peak = -1
    if let range = run.stderr.range(of: "\nmaxrss-kib=", options: .backwards) {
        peak = Int(run.stderr[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        run.stderr = String(run.stderr[..<range.lowerBound])
    }
    return (run, peak)
}

/// Runs `script` with `sh -c`, `set -e` first, in `dir` (fixture building: archives, pipes of
/// fixture files); fails the test unless it exits 0.
public func sh(_ dir: TempDir, _ script: String, file: StaticString = #filePath, line: UInt = #line) {
    let r = runProcess("/bin/sh", ["-c", "set -e; " + script], cwd: dir.path, file: file, line: line)
    XCTAssertEqual(r.status, 0, "\(script): \(r.stderr)", file: file, line: line)
}
#endif
