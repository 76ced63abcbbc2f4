import Foundation
import POSIXIO
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The I/O seam every module reads and writes descriptors through: EINTR is retried, short
/// reads and writes are continued, the end of the input and a failure are told apart, and a
/// failure comes back as its errno.
final class POSIXTests: XCTestCase {
    func pipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&fds), 0)
        return (fds[0], fds[1])
    }

    func testRetryingCallsAgainAfterEINTROnlyAndKeepsTheLastResult() {
        var calls = 0
        let result = POSIX.retrying { () -> Int in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(calls, 3)
        calls = 0
        let failed = POSIX.retrying { () -> Int32 in
            calls += 1
            errno = EAGAIN
            return -1
        }
        XCTAssertEqual(failed, -1)
        XCTAssertEqual(errno, EAGAIN)
        XCTAssertEqual(calls, 1, "only EINTR is retried")
    }

    /// 256 KiB through a pipe (64 KiB of kernel buffer), written in pieces by another thread:
    /// one read(2) would return a part; readFully returns all of it, in order.
    func testReadFullyContinuesShortReadsUntilTheBufferIsFull() {
        let (r, w) = pipe()
        defer { close(r) }
        var generator = SeededGenerator(seed: 40)
        let sent = generator.bytes(256 << 10)
        let writer = Thread {
            var at = 0
            while at < sent.count {
                let piece = min(1000, sent.count - at)
                let n = sent.withUnsafeBytes { Glibc.write(w, $0.baseAddress! + at, piece) }
                if n <= 0 { break }
                at += n
            }
            close(w)
        }
        writer.start()
        var got = [UInt8](repeating: 0, count: sent.count)
        let transfer = got.withUnsafeMutableBytes { POSIX.readFully(r, into: $0) }
        XCTAssertEqual(transfer, POSIX.Transfer(count: sent.count, error: nil))
        XCTAssertEqual(got, sent)
    }

    func testReadFullyStopsAtTheEndOfTheInputAndReportsAFailureAsErrno() {
        let (r, w) = pipe()
        XCTAssertNil(POSIX.writeAll(w, Array("0123456789".utf8)))
        close(w)
        var buffer = [UInt8](repeating: 0, count: 100)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { POSIX.readFully(r, into: $0) }, POSIX.Transfer(count: 10, error: nil))
        XCTAssertEqual(Array(buffer[0..<10]), Array("0123456789".utf8))
        close(r)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { POSIX.readFully(r, into: $0) }, POSIX.Transfer(count: 0, error: EBADF))
        XCTAssertEqual(POSIX.read(r, &buffer, 1), -1)
    }

    func testPreadFullyReadsAtAnOffsetWithoutMovingTheDescriptorAndStopsAtTheEnd() throws {
        let dir = TempDir()
        let path = dir.write("f", "abcdefghij").path
        let fd = POSIX.open(path, O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: 3) }, POSIX.Transfer(count: 4, error: nil))
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "defg")
        XCTAssertEqual(lseek(fd, 0, SEEK_CUR), 0, "pread leaves the descriptor's offset")
        XCTAssertEqual(buffer.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: 8) }, POSIX.Transfer(count: 2, error: nil))
        XCTAssertEqual(POSIX.pread(fd, &buffer, 4, at: 10), 0, "at the end: 0")
    }

    /// 1 MiB into a pipe whose reader takes it in 4 KiB reads: every byte arrives in order.
    func testWriteAllContinuesPartialWrites() {
        let (r, w) = pipe()
        var generator = SeededGenerator(seed: 41)
        let sent = generator.bytes(1 << 20)
        let received = Received()
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = POSIX.read(r, &chunk, chunk.count)
                if n <= 0 { break }
                received.append(chunk[0..<n])
            }
            close(r)
            received.done.signal()
        }
        reader.start()
        XCTAssertNil(POSIX.writeAll(w, sent))
        close(w)
        received.done.wait()
        XCTAssertEqual(received.bytes, sent)
    }

    func testWriteAllReportsTheFailuresErrno() {
        let full = POSIX.open("/dev/full", O_WRONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(full, 0)
        XCTAssertEqual(POSIX.writeAll(full, "x"), ENOSPC)
        close(full)
        XCTAssertEqual(POSIX.writeAll(full, "x"), EBADF)
        XCTAssertNil(POSIX.writeAll(full, ""), "nothing to write is no failure")
    }

    func testOpenAndCloseReportErrno() {
        XCTAssertEqual(POSIX.open("/nonexistent-folder-\(getpid())/x", O_RDONLY), -1)
        XCTAssertEqual(errno, ENOENT)
        let fd = POSIX.open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertNil(POSIX.close(fd))
        XCTAssertEqual(POSIX.close(fd), EBADF)
    }
}

private final class Received: @unchecked Sendable {
    var bytes: [UInt8] = []
    let done = DispatchSemaphore(value: 0)
    func append(_ piece: ArraySlice<UInt8>) { bytes += piece }
}
