import Foundation
import XCTest
import TestSupport

/// What is merely large is streamed, not refused: a 150 MB file with a key at its end is found
/// and the run is no error (100 MiB was a default limit, and every tree with a checked-in model
/// or database dump exited 2). A limit the user sets still holds, as an error entry.
final class LargeFileTests: XCTestCase {
    func testA150MBFileIsStreamedAndItsLastKeyFound() throws {
        let tmp = TempDir()
        let secret = canary("largeEnd1")
        let path = tmp.path + "/tree/dump.sql"
        tmp.write("tree/dump.sql", "")
        // Sparse (a hole the reader passes over quickly), then text at 150 MB.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 150_000_000)
        try handle.seekToEnd()
        handle.write(Data("\ntoken = \(secret)\n".utf8))
        try handle.close()
        let r = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"path\": \"dump.sql\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("\"errors\": []"), r.stdout)
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
        let limited = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--max-file-size", "100MiB"])
        XCTAssertEqual(limited.status, 2, "a limit the user sets is an error entry when a file is over it")
    }
}
