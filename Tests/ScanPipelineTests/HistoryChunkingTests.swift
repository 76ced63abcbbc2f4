import Foundation
import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// Blobs larger than the chunk size are read from git and scanned in overlapping chunks,
/// as large files are, so a config raising `maxFileSize` cannot make history hold a huge
/// blob whole. Tiny chunks here, so one modest blob crosses many boundaries.
final class HistoryChunkingTests: XCTestCase {
    /// A distinct token per place (the token rule wants 24 letters and digits after `tok_`).
    static func token(_ i: Int) -> String {
        let digits = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789")
        var n = i, suffix = ""
        for _ in 0..<4 { suffix.append(digits[n % digits.count]); n /= digits.count }
        return "tok_" + "Zq8Xv2Lm4Np6Rs0Tu1Wy" + suffix
    }

    func testLargeBlobIsScannedInChunksWithEveryKeyAtItsPlace() throws {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        // 12 MiB of text with a key every 97,000 bytes or so: with 256 KiB chunks and
        // 64 KiB of overlap, keys fall before, inside and across every boundary.
        var text = [UInt8]()
        text.reserveCapacity(12 << 20)
        var expected: [(offset: Int, line: Int)] = []
        var line = 1, k = 0
        let filler = Array(String(repeating: "w", count: 99).utf8) + [0x0A]
        let pathOnly = "pk_" + "Hq3Lm9Rt5Vx1Zb7Nd2Fg"
        var pathOnlyAt: [Int] = []
        while text.count < 12 << 20 {
            if text.count / 97_000 > k {
                k += 1
                expected.append((text.count + 2, line))
                text += Array("k=\(HistoryChunkingTests.token(k))\n".utf8)
            } else if text.count / 1_000_000 > pathOnlyAt.count {
                pathOnlyAt.append(text.count + 2)
                text += Array("p=\(pathOnly)\n".utf8)
            } else {
                text += filler
            }
            line += 1
        }
        tree.write("repo/big.txt", Data(text))
        tree.write("repo/small.txt", "k=\(HistoryChunkingTests.token(0))\n")
        try TestGit.run(repo, ["add", "-A"])
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "big"])

        // A rule whose `path` condition makes its findings go through the re-check with the
        // real path, which reads the blob again (in chunks too).
        let rules = TestRules.set(extra: """
        [[rules]]
        id = "path-only"
        description = "test key of big.txt only"
        regex = '''\\b(pk_[A-Za-z0-9]{20})\\b'''
        keywords = ["pk_"]
        path = '''^big\\.txt$'''
        """)
        var options = ScanOptions(jobs: 2)
        options.hashKey = "test"
        options.chunkSize = 256 << 10
        options.maxFileSize = 8 << 30  // as a repository's config may ask
        let scanner = HistoryScanner(ruleSet: rules, options: options, history: HistoryOptions())
        let (result, _) = try scanner.scan(repository: repo)
        XCTAssertEqual(result.issues, [])
        let big = result.findings.filter { $0.location.path == "big.txt" && $0.rule == "token" }
            .sorted { $0.location.byteOffset < $1.location.byteOffset }
        XCTAssertEqual(big.map(\.location.byteOffset), expected.map(\.offset))
        XCTAssertEqual(big.map { $0.location.line ?? 0 }, expected.map(\.line))
        XCTAssertEqual(big.map { $0.location.column ?? 0 }, expected.map { _ in 3 })
        XCTAssertEqual(result.findings.filter { $0.rule == "path-only" }.map(\.location.byteOffset).sorted(), pathOnlyAt)
        XCTAssertEqual(result.findings.filter { $0.location.path == "small.txt" }.count, 1)
        XCTAssertEqual(result.stats.bytes, text.count + "k=\(HistoryChunkingTests.token(0))\n".utf8.count)
        XCTAssertLessThanOrEqual(scanner.largestBlobBuffer, max(BlobWorkers.Parcel.size, options.chunkSize),
                                 "a 12 MiB blob was held whole")
    }

    /// `staged` too: a 6 MiB text file gaining keys across 256 KiB chunk boundaries reports
    /// just the added ones at their staged lines, and a 3 MiB binary file (no text hunks)
    /// just the key HEAD's version lacked, neither held whole.
    func testLargeStagedFilesAreScannedInChunks() throws {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        let filler = Array(String(repeating: "w", count: 99).utf8) + [0x0A]
        func text(keysAt lines: Set<Int>, count: Int) -> [UInt8] {
            var out = [UInt8]()
            for n in 1...count { out += lines.contains(n) ? Array("k=\(HistoryChunkingTests.token(n))\n".utf8) : filler }
            return out
        }
        var binary = [UInt8](repeating: 0, count: 3 << 20)
        func plant(_ i: Int, at offset: Int) { binary.replaceSubrange(offset..<offset + 28, with: Array(HistoryChunkingTests.token(i).utf8)) }
        plant(1, at: 100_000)
        tree.write("repo/big.txt", Data(text(keysAt: [10, 30_000], count: 60_000)))
        tree.write("repo/big.bin", Data(binary))
        try TestGit.run(repo, ["add", "-A"])
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "big"])
        // Lines 1,966 and 1,967 sit where the first 256 KiB chunk's 64 KiB overlap begins
        // (lines are 100 bytes); 7,000 is inside the fourth chunk.
        let added: Set<Int> = [2_000, 1_966, 1_967, 7_000, 59_999]
        tree.write("repo/big.txt", Data(text(keysAt: added.union([10, 30_000]), count: 60_000)))
        plant(2, at: (256 << 10) - (64 << 10) - 10)
        tree.write("repo/big.bin", Data(binary))
        try TestGit.run(repo, ["add", "-A"])

        var options = ScanOptions(jobs: 2)
        options.hashKey = "test"
        options.chunkSize = 256 << 10
        options.maxFileSize = 8 << 30
        let scanner = StagedScanner(ruleSet: TestRules.set(), options: options)
        let (result, _) = try scanner.scan(repository: repo)
        XCTAssertEqual(result.issues, [])
        XCTAssertEqual(result.findings.filter { $0.location.path == "big.txt" }.compactMap(\.location.line).sorted(), added.sorted())
        XCTAssertEqual(result.findings.filter { $0.location.path == "big.bin" }.map(\.location.byteOffset), [(256 << 10) - (64 << 10) - 10])
        XCTAssertLessThanOrEqual(scanner.largestBlobBuffer, options.chunkSize, "a staged file was held whole")
    }

    /// Blobs streamed in chunks get the same partial-match resume as files: a match longer
    /// than the overlap is found wherever it crosses a boundary, with its line and column,
    /// and one longer than half a chunk is an error entry, never a silent miss.
    func testStreamedBlobsResumeMatchesLongerThanTheOverlap() throws {
        let tree = TempDir()
        let repo = tree.path + "/repo"
        try TestGit.initRepository(repo)
        let long = "LONGKEY_" + TestRules.upperNoise(300) + "_END"
        let starts = Array(stride(from: 500, through: 1700, by: 23))
        for start in starts {
            tree.write("repo/long-\(start).txt", String(repeating: "x", count: start - 1) + "\n" + long + "\n"
                       + String(repeating: "filler line\n", count: 200) + "k = \(HistoryChunkingTests.token(start))\n")
        }
        tree.write("repo/huge.txt", "HUGEKEY_" + TestRules.upperNoise(2000) + "_END\n" + String(repeating: "filler line\n", count: 300))
        try TestGit.run(repo, ["add", "-A"])
        try TestGit.run(repo, ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "long"])
        let rules = TestRules.set(extra: """
        [[rules]]
        id = "long"
        regex = '''LONGKEY_([A-Z]{300})_END'''
        keywords = ["longkey_"]
        [[rules]]
        id = "huge"
        regex = '''HUGEKEY_([A-Z]{2000})_END'''
        keywords = ["hugekey_"]
        """)
        var options = ScanOptions(jobs: 2)
        options.hashKey = "test"
        options.chunkSize = 1024
        let (result, _) = try HistoryScanner(ruleSet: rules, options: options, history: HistoryOptions()).scan(repository: repo)
        for start in starts {
            let here = result.findings.filter { $0.location.path == "long-\(start).txt" }.sorted { $0.location.byteOffset < $1.location.byteOffset }
            XCTAssertEqual(here.map(\.rule), ["long", "token"], "start \(start)")
            XCTAssertEqual(here.first?.location.byteOffset, start + 8, "start \(start)")
            XCTAssertEqual(here.first?.location.line, 2, "start \(start)")
            XCTAssertEqual(here.first?.location.column, 9, "start \(start)")
            XCTAssertEqual(here.last?.location.line, 203, "start \(start)")
        }
        XCTAssertEqual(result.findings.filter { $0.rule == "huge" }.count, 0)
        XCTAssertEqual(result.issues.count, 1, "\(result.issues)")
        XCTAssertTrue(result.issues.first?.path.hasPrefix("huge.txt") ?? false, "\(result.issues)")
        XCTAssertTrue(result.issues.first?.message.contains("read boundary") ?? false, "\(result.issues)")
    }
}
