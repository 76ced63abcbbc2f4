import Foundation
import XCTest
import ScanCore
@testable import ScanPipeline
import TestSupport

/// The folder scan's progress counts what the bar and the ETA go by: the listed files' bytes,
/// each file counted once, to its listed size, however it ended (text, binary, archive,
/// over the size limit).
final class ScanProgressTests: XCTestCase {
    func testInputBytesReachTheListedTotalWhateverEachFileWas() throws {
        let tree = TempDir()
        tree.write("big.txt", String(repeating: "line of text without a key\n", count: 400_000))  // 10.8 MB: several chunks
        tree.write("small.txt", "token = \(TestRules.token)\n")
        tree.write("blob.bin", Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        tree.write("fill.txt", String(repeating: "y", count: 3_000_000))
        let zip = tree.path + "/members.zip"
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        made.arguments = ["zip", "-q", "-j", zip, tree.path + "/small.txt", tree.path + "/big.txt"]
        try made.run()
        made.waitUntilExit()
        XCTAssertEqual(made.terminationStatus, 0)

        let sizes = try FileManager.default.contentsOfDirectory(atPath: tree.path).map {
            (try FileManager.default.attributesOfItem(atPath: tree.path + "/" + $0)[.size] as! NSNumber).intValue
        }
        var options = ScanOptions(jobs: 2)
        options.hashKey = "test"
        let scanner = Scanner(ruleSet: TestRules.set(), options: options)
        let result = scanner.scan(paths: [tree.path]).result
        XCTAssertEqual(result.findings.count, 2, "small.txt and its copy in the zip")
        XCTAssertEqual(scanner.progress.bytesTotal.load(ordering: .relaxed), sizes.reduce(0, +))
        XCTAssertEqual(scanner.progress.inputBytesDone.load(ordering: .relaxed), sizes.reduce(0, +),
                       "each file counted to its size: the zip's members expand past it, and count no more")
        // The scanned bytes (MB/s) count what was read, members included: more than listed.
        XCTAssertGreaterThan(scanner.progress.bytesDone.load(ordering: .relaxed), sizes.reduce(0, +))
    }

    func testAFileOverTheLimitCountsAsDone() {
        let tree = TempDir()
        tree.write("huge.txt", String(repeating: "z", count: 200_000))
        tree.write("ok.txt", "fine\n")
        var options = ScanOptions(jobs: 1)
        options.hashKey = "test"
        options.maxFileSize = 100_000
        let scanner = Scanner(ruleSet: TestRules.set(), options: options)
        _ = scanner.scan(paths: [tree.path])
        XCTAssertEqual(scanner.progress.bytesTotal.load(ordering: .relaxed), 200_005)
        XCTAssertEqual(scanner.progress.inputBytesDone.load(ordering: .relaxed), 200_005)
    }
}
