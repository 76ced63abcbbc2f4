import Foundation
import TestSupport
import XCTest

/// `keyshape scan -` when standard input is not something to read: no descriptor at all
/// (`0<&-`), a folder, a file opened for writing only. Each is an error entry and exit 2,
/// never "scanned 1 files" and exit 0; an empty but open standard input is an empty file.
final class StdinClosedTests: XCTestCase {
    func scan(stdin: InputSetup?, _ tmp: TempDir) -> (ChildEnd, String, String) {
        let out = tmp.path + "/stdout", err = tmp.path + "/stderr"
        let end = runWithStreams(Binary.url, ["scan", "-", "--no-progress", "--no-config", "--format", "json"],
                                 stdout: .file(out), stderr: .file(err), stdin: stdin)
        XCTAssertFalse(end.timedOut)
        return (end, tmp.read("stdout"), tmp.read("stderr"))
    }

    /// The JSON report's error entries and its count of files scanned.
    func report(_ json: String) throws -> (errors: [[String: Any]], files: Int) {
        let object = try XCTUnwrap(JSONReport.object(json))
        let stats = try XCTUnwrap(object["stats"] as? [String: Any])
        return ((object["errors"] as? [[String: Any]]) ?? [], (stats["files"] as? Int) ?? -1)
    }

    func testClosedStandardInputIsAnErrorNotAnEmptyFile() throws {
        let tmp = TempDir()
        let (end, stdout, stderr) = scan(stdin: .closed, tmp)
        XCTAssertEqual(end.exitStatus, 2, stderr)
        XCTAssertTrue(stderr.contains("1 error; scanned 0 files"), stderr)
        let (errors, files) = try report(stdout)
        XCTAssertEqual(files, 0, "nothing was scanned")
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?["path"] as? String, "-")
        XCTAssertTrue((errors.first?["message"] as? String ?? "").hasPrefix("standard input is closed"), "\(errors)")
    }

    func testEmptyOpenStandardInputIsAnEmptyFile() throws {
        let tmp = TempDir()
        let (end, stdout, stderr) = scan(stdin: .path("/dev/null", flags: O_RDONLY), tmp)
        XCTAssertEqual(end.exitStatus, 0, stderr)
        let (errors, files) = try report(stdout)
        XCTAssertEqual(files, 1)
        XCTAssertTrue(errors.isEmpty)
    }

    func testFolderOrWriteOnlyStandardInputIsAnError() throws {
        let tmp = TempDir()
        tmp.write("sink", "")
        for (what, setup) in [("a folder", InputSetup.path(tmp.path, flags: O_RDONLY)),
                              ("opened for writing only", .path(tmp.path + "/sink", flags: O_WRONLY))] {
            let (end, stdout, stderr) = scan(stdin: setup, tmp)
            XCTAssertEqual(end.exitStatus, 2, "\(what): \(stderr)")
            let (errors, files) = try report(stdout)
            XCTAssertEqual(files, 0, what)
            XCTAssertEqual(errors.count, 1, what)
        }
    }
}
