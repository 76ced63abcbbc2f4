import Foundation
import XCTest
@testable import GitHistory

/// The bound on every git child (`ChildWatchdog`): a child keyshape waits for that neither
/// writes nor uses CPU time is killed and says why; one that works, or that waits for
/// keyshape, is left alone.
final class ChildWatchdogTests: XCTestCase {
    /// `cat` with its stdin left open waits forever for input, as git waits in `open` of a
    /// FIFO: the reader waiting for its output gets the end of it once the watchdog kills it.
    func testAStalledChildIsKilledAndSaysWhy() throws {
        let p = try Subprocess(executable: "/bin/cat", arguments: [], environment: [], commandName: "cat",
                               stdin: .pipe, stdout: .pipe, stallLimit: 0.5)
        let started = Date()
        let out = p.outputReader().readAll()
        let status = p.wait()
        XCTAssertEqual(out, [])
        XCTAssertEqual(status, 128 + SIGKILL)
        XCTAssertTrue(p.stderrReason.contains("made no progress for 0.5 s"), p.stderrReason)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }

    /// A child that owes no output (it waits for keyshape's next request) is not stalled,
    /// however long keyshape takes.
    func testAChildWaitingForKeyshapeIsLeftAlone() throws {
        let p = try Subprocess(executable: "/bin/cat", arguments: [], environment: [], commandName: "cat",
                               stdin: .pipe, stdout: .pipe, stallLimit: 0.3)
        p.watch.owesOutput = { false }
        let fd = p.stdinFD
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) {
            _ = Array("late\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            p.closeStdin()
        }
        let out = p.outputReader().readAll()
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "late\n")
        XCTAssertEqual(p.wait(), 0)
        XCTAssertEqual(p.stderrReason, "")
    }

    /// A child that uses CPU time without writing (a `rev-list` thinking before its first
    /// line) is working, not stalled.
    func testABusyChildIsNotStalled() throws {
        let p = try Subprocess(executable: "/bin/sh", arguments: ["-c", "i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done; echo done"],
                               environment: [], commandName: "sh", stdin: .null, stdout: .pipe, stallLimit: 1)
        let out = p.outputReader().readAll()
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "done\n")
        XCTAssertEqual(p.wait(), 0, p.stderrReason)
    }

    func testLimitFromTheEnvironment() {
        XCTAssertEqual(ChildWatchdog.limit(from: [:]), ChildWatchdog.defaultLimit)
        XCTAssertEqual(ChildWatchdog.limit(from: ["KEYSHAPE_GIT_STALL_SECONDS": "2.5"]), 2.5)
        XCTAssertEqual(ChildWatchdog.limit(from: ["KEYSHAPE_GIT_STALL_SECONDS": "0"]), ChildWatchdog.defaultLimit)
        XCTAssertEqual(ChildWatchdog.limit(from: ["KEYSHAPE_GIT_STALL_SECONDS": "soon"]), ChildWatchdog.defaultLimit)
    }
}
