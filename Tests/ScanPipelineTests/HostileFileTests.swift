import Foundation
import XCTest
import ScanCore
import FileInputs
@testable import ScanPipeline
import TestSupport

/// Files built to make a scanner block, read without bound or drop a problem: each is read
/// through the descriptor first opened, up to the size limit, and every problem is an
/// error entry. Every file is built here at run time.
final class HostileFileTests: XCTestCase {
    func testBinarySwappedForAFIFOBeforeItsLayoutIsMappedFromTheOpenFile() throws {
        let tree = TempDir()
        var elf = TinyELF()
        elf.sections = [(".rodata", [0] + Array("key=\(TestRules.token)".utf8) + [0])]
        let (bytes, offsets) = elf.build()
        let path = tree.write("app", Data(bytes)).path
        let entry = FileWalker().walk([path]).files[0]
        let scanner = FileScanner(ruleSet: TestRules.set(), options: { var o = ScanOptions(jobs: 1); o.hashKey = "test"; return o }())
        var swapped = false
        scanner.beforeLayout = {
            unlink(path)
            swapped = mkfifo(path, 0o600) == 0
        }
        let done = DispatchSemaphore(value: 0)
        Thread { scanner.scan(entry); done.signal() }.start()
        if done.wait(timeout: .now() + 20) == .timedOut {
            // Free the blocked reader so the test process can end.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            XCTFail("the scan blocked on the FIFO swapped in for the binary")
            _ = done.wait(timeout: .now() + 5)
            if writer >= 0 { close(writer) }
            return
        }
        XCTAssertTrue(swapped)
        XCTAssertEqual(scanner.issues, [])
        XCTAssertEqual(scanner.findings.count, 1)
        let l = scanner.findings.first?.location
        XCTAssertEqual(l?.format, "elf", "mapped from the bytes that were read")
        XCTAssertEqual(l?.section, ".rodata")
        XCTAssertEqual(l?.fileOffset, offsets[".rodata"]! + 5)
    }

    func testSectionOutsideTheFileIsAnErrorEntryAndTheBytesAreStillScanned() {
        let tree = TempDir()
        var elf = TinyELF()
        elf.sections = [(".rodata", [0] + Array("key=\(TestRules.token)".utf8) + [0])]
        elf.phantom = [(".data", 1 << 20, 4096)]
        tree.write("lib.so", Data(elf.build().bytes))
        let r = runScan([tree.path])
        XCTAssertEqual(r.findings.map { $0.location.section }, [".rodata"])
        XCTAssertEqual(r.issues.map(\.path), ["lib.so"])
        XCTAssertTrue(r.issues.first?.message.contains("lies outside the file") ?? false, "\(r.issues)")
    }

    func testAFileLongerThanItsSizeSaysIsReadOnlyToTheLimit() throws {
        // /proc files report size 0 whatever they hold; this one holds over a kilobyte.
        let path = "/proc/self/status"
        let total = try Data(contentsOf: URL(fileURLWithPath: path)).count
        XCTAssertGreaterThan(total, 300)
        let entry = FileWalker().walk([path]).files[0]
        XCTAssertEqual(entry.size, 0)
        var seen = 0
        XCTAssertThrowsError(try ChunkReader(chunkSize: 256, overlap: 16).read(entry, limit: 100) { seen += $0.accept.count }) { error in
            XCTAssertTrue((error as? ChunkReader.ReadError)?.message.contains("100-byte limit") ?? false, "\(error)")
        }
        XCTAssertEqual(seen, 100, "the bytes up to the limit are scanned, none past it")
        let r = runScan([path]) { $0.maxFileSize = 100 }
        XCTAssertEqual(r.issues.count, 1)
        XCTAssertTrue(r.issues.first?.message.contains("100-byte limit") ?? false, "\(r.issues)")
        // At the limit exactly, nothing is over it.
        XCTAssertNoThrow(try ChunkReader(chunkSize: 256, overlap: 16).read(entry, limit: 1 << 20) { _ in })
    }
}
