import Foundation
import TestSupport
import XCTest

/// `keyshape scan . | head -1`: once stdout takes no more of a streamed report, the scan
/// stops taking files instead of scanning the rest of the tree for nobody.
final class BrokenPipeStopTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "pipestop"
    let fileCount = 3000

    /// Every file holds a finding, so the first file scanned writes to the closed pipe.
    /// All files get an access time in 2001; the file system updates it when a file is read
    /// (relatime: the old access time is not after the modification time), which marks the
    /// files keyshape read, independently of what keyshape says about itself.
    func tree() -> TempDir {
        let tmp = TempDir()
        for i in 0..<fileCount { tmp.write("src/f\(i).txt", "x = \(canary)\(i % 10)\n") }
        for i in 0..<fileCount { setOldTimes(tmp.path + "/src/f\(i).txt") }
        return tmp
    }

    func setOldTimes(_ path: String) {
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
    }

    func accessedSince2001(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return st.st_atim.tv_sec != 1_000_000_000
    }

    /// Whether reading a file here updates its access time at all (not on a noatime mount).
    func atimeIsRecorded(in tmp: TempDir) -> Bool {
        tmp.write("probe", "x")
        setOldTimes(tmp.path + "/probe")
        _ = FileManager.default.contents(atPath: tmp.path + "/probe")
        return accessedSince2001(tmp.path + "/probe")
    }

    func testClosedPipeStopsTheScanQuietlyWithTheFindingsStatus() throws {
        let tmp = tree()
        let errors = tmp.path + "/stderr"
        let end = runWithStreams(Binary.url, ["scan", tmp.path + "/src", "--no-progress", "--jobs", "2"],
                                 stdout: .closedPipe, stderr: .file(errors))
        XCTAssertFalse(end.timedOut)
        XCTAssertNil(end.signal, "\(end)")
        XCTAssertEqual(end.exitStatus, 1, "the findings' status, as when the scan ran to the end: \(end)")
        let said = tmp.read("stderr")
        XCTAssertFalse(said.contains("cannot write to standard output"), "a reader that stopped is not an error: \(said)")
        XCTAssertFalse(said.contains(canary), said)

        // keyshape's own count, from the summary.
        let marker = try XCTUnwrap(said.range(of: "stopped after "), said)
        let words = said[marker.upperBound...].split(separator: " ")
        XCTAssertEqual(words.count > 3 ? words[1] : "", "of", said)
        let scanned = try XCTUnwrap(Int(words[0]), said), listed = try XCTUnwrap(Int(words[2]), said)
        XCTAssertEqual(listed, fileCount)
        XCTAssertLessThan(scanned, 100, said)

        // The file system's count of files read.
        if atimeIsRecorded(in: tmp) {
            let read = (0..<fileCount).filter { accessedSince2001(tmp.path + "/src/f\($0).txt") }.count
            XCTAssertGreaterThan(read, 0)
            XCTAssertLessThan(read, 100, "files read before the scan stopped")
        }
    }

    /// A baseline or another report file needs the whole result: the scan goes on.
    func testClosedPipeWithABaselineStillScansEverything() throws {
        let tmp = tree()
        let baseline = tmp.path + "/baseline.json"
        let end = runWithStreams(Binary.url, ["scan", tmp.path + "/src", "--no-progress", "--write-baseline", baseline],
                                 stdout: .closedPipe, stderr: .file(tmp.path + "/stderr"))
        XCTAssertEqual(end.exitStatus, 1, "\(end)")
        let object = try XCTUnwrap(JSONReport.object(Data(contentsOf: URL(fileURLWithPath: baseline))))
        XCTAssertEqual((object["findings"] as! [Any]).count, fileCount)
        XCTAssertFalse(tmp.read("stderr").contains("stopped after"), tmp.read("stderr"))
    }

    /// With `--exit-code 0` a stopped scan must not look like a complete, accepted one.
    func testStoppedScanIsNeverStatus0() {
        let tmp = tree()
        let end = runWithStreams(Binary.url, ["scan", tmp.path + "/src", "--no-progress", "--exit-code", "0"],
                                 stdout: .closedPipe, stderr: .file(tmp.path + "/stderr"))
        XCTAssertEqual(end.exitStatus, 2, "\(end)")
    }
}
