import Foundation
import TestSupport
import XCTest

/// A stdout or stderr that cannot be written (a reader that stopped, a full disk, a closed
/// descriptor) never traps keyshape: a closed pipe keeps the scan's status, any other
/// stdout failure is one line on stderr and exit 2, and files asked for are still written.
final class StreamFailureTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "streams1"

    /// A tree with enough findings that the text report is larger than a pipe's buffer.
    func tree() -> TempDir {
        let tmp = TempDir()
        for i in 0..<400 { tmp.write("src/f\(i).txt", "x = \(canary)\(i % 10)\n") }
        return tmp
    }

    func run(_ args: [String], stdout: StreamSetup, stderr: StreamSetup) -> ChildEnd {
        runWithStreams(Binary.url, args, stdout: stdout, stderr: stderr)
    }

    func assertNoTrap(_ end: ChildEnd, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(end.timedOut, what, file: file, line: line)
        XCTAssertNil(end.signal, "\(what): \(end)", file: file, line: line)
        XCTAssertFalse([132, 133, 134, 139].contains(end.exitStatus ?? 0), "\(what): \(end)", file: file, line: line)
    }

    func baselineFingerprints(_ path: String) throws -> Int {
        let object = try XCTUnwrap(JSONReport.object(Data(contentsOf: URL(fileURLWithPath: path))))
        return (object["findings"] as! [Any]).count
    }

    func testReaderThatClosedThePipeKeepsTheScanStatusAndTheBaseline() throws {
        let tmp = tree()
        for format in ["text", "json", "sarif"] {
            let baseline = tmp.path + "/baseline-\(format).json"
            let errors = tmp.path + "/stderr-\(format)"
            let end = run(["scan", tmp.path + "/src", "--no-progress", "--format", format, "--write-baseline", baseline],
                          stdout: .closedPipe, stderr: .file(errors))
            assertNoTrap(end, format)
            XCTAssertEqual(end.exitStatus, 1, "\(format): the status the scan had (findings)")
            XCTAssertEqual(try baselineFingerprints(baseline), 400, format)
            let said = tmp.read("stderr-\(format)")
            XCTAssertFalse(said.contains("standard output"), "a closed pipe is not an error: \(said)")
            XCTAssertTrue(said.contains("400 findings"), said)
        }
    }

    func testFullDeviceIsExit2WithAMessageAndFilesAreStillWritten() throws {
        let tmp = tree()
        let baseline = tmp.path + "/baseline.json"
        let end = run(["scan", tmp.path + "/src", "--no-progress", "--write-baseline", baseline],
                      stdout: .full, stderr: .file(tmp.path + "/stderr"))
        assertNoTrap(end, ">/dev/full")
        XCTAssertEqual(end.exitStatus, 2, "the report was not delivered")
        XCTAssertTrue(tmp.read("stderr").contains("keyshape: error: cannot write to standard output: No space left on device"), tmp.read("stderr"))
        XCTAssertEqual(try baselineFingerprints(baseline), 400)

        // With --output the report goes to its file; stdout carries nothing, so nothing fails.
        let report = tmp.path + "/report.json"
        let toFile = run(["scan", tmp.path + "/src", "--no-progress", "--format", "json", "--output", report,
                          "--write-baseline", baseline], stdout: .full, stderr: .file(tmp.path + "/stderr2"))
        assertNoTrap(toFile, "--output with >/dev/full")
        XCTAssertEqual(toFile.exitStatus, 1)
        XCTAssertEqual(((try XCTUnwrap(JSONReport.object(Data(contentsOf: URL(fileURLWithPath: report)))))["findings"] as! [Any]).count, 400)
    }

    func testClosedStdoutIsExit2AndNothingLandsInTheBaseline() throws {
        let tmp = tree()
        let baseline = tmp.path + "/baseline.json"
        let end = run(["scan", tmp.path + "/src", "--no-progress", "--write-baseline", baseline],
                      stdout: .closed, stderr: .file(tmp.path + "/stderr"))
        assertNoTrap(end, ">&-")
        XCTAssertEqual(end.exitStatus, 2)
        XCTAssertTrue(tmp.read("stderr").contains("cannot write to standard output: Bad file descriptor"), tmp.read("stderr"))
        XCTAssertEqual(try baselineFingerprints(baseline), 400, "the report did not go into the baseline file")
    }

    func testClosedStderrIsNoTrapAndNothingLandsInTheFiles() throws {
        let tmp = tree()
        let baseline = tmp.path + "/baseline.json"
        let report = tmp.path + "/report.txt"
        let end = run(["scan", tmp.path + "/src", "--progress", "--write-baseline", baseline],
                      stdout: .file(report), stderr: .closed)
        assertNoTrap(end, "2>&-")
        XCTAssertEqual(end.exitStatus, 1)
        XCTAssertEqual(try baselineFingerprints(baseline), 400)
        let text = tmp.read("report.txt")
        XCTAssertEqual(text.split(separator: "\n").count, 400)
        XCTAssertFalse(text.contains("keyshape:"), "stderr's lines did not land in the report")

        // A usage error with nowhere to say it: still exit 2, no trap.
        let usage = run(["scan", "--format", "xml"], stdout: .file(report), stderr: .closed)
        assertNoTrap(usage, "usage error with 2>&-")
        XCTAssertEqual(usage.exitStatus, 2)
    }

    func testOtherCommandsHandleBrokenStdoutToo() {
        let tmp = TempDir()
        for args in [["version"], ["--help"], ["scan", "--help"], ["rules", "list"], ["rules", "list", "--format", "json"], ["rules", "check"]] {
            let piped = run(args, stdout: .closedPipe, stderr: .file(tmp.path + "/stderr"))
            assertNoTrap(piped, "\(args) | head -c0")
            XCTAssertEqual(piped.exitStatus, 0, "\(args): a closed pipe keeps the status")
            let full = run(args, stdout: .full, stderr: .file(tmp.path + "/stderr"))
            assertNoTrap(full, "\(args) >/dev/full")
            XCTAssertEqual(full.exitStatus, 2, "\(args) >/dev/full")
            XCTAssertTrue(tmp.read("stderr").contains("cannot write to standard output: No space left on device"), "\(args): \(tmp.read("stderr"))")
        }
    }

    /// Files that cannot be written are named with strerror's words, not Foundation's numbers
    /// ("cannot write (error 4)" before).
    func testUnwritableFilesAreDescribedInWords() {
        let tmp = tree()
        let missingFolder = keyshape(["scan", tmp.path + "/src", "--no-progress", "--write-baseline", tmp.path + "/no/such/folder/b.json"])
        XCTAssertEqual(missingFolder.status, 2)
        XCTAssertTrue(missingFolder.stderr.contains("/no/such/folder/b.json: cannot write (no such file or directory)"), missingFolder.stderr)
        let folder = keyshape(["scan", tmp.path + "/src", "--no-progress", "--output", tmp.path + "/src"])
        XCTAssertEqual(folder.status, 2)
        XCTAssertTrue(folder.stderr.contains("cannot write (is a directory)"), folder.stderr)
        for r in [missingFolder, folder] { XCTAssertNil(r.stderr.range(of: #"error \d"#, options: .regularExpression), r.stderr) }
    }
}
