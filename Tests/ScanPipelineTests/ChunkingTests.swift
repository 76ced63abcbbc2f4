import Foundation
import XCTest
import ScanCore
@testable import ScanPipeline
import TestSupport

/// Large inputs are read in bounded, overlapping chunks; these use tiny chunks so every
/// boundary case happens in a small file.
final class ChunkingTests: XCTestCase {
    func testSecretsAcrossChunkBoundariesAreFoundOnceWithRightLines() {
        let tree = TempDir()
        var text = ""
        var expected: [(line: Int, offset: Int)] = []
        var line = 1
        for i in 0..<400 {
            if i % 37 == 5 {
                expected.append((line, text.utf8.count + 2))
                text += "k=\(TestRules.token)\n"
            } else {
                text += String(repeating: "w", count: (i * 7) % 90) + "\n"
            }
            line += 1
        }
        tree.write("long.txt", text)
        for chunk in [256, 1000, 4096, 1 << 20] {
            let r = runScan([tree.path]) { $0.chunkSize = chunk }
            XCTAssertEqual(r.issues, [])
            XCTAssertEqual(r.findings.map { $0.location.line! }, expected.map(\.line), "chunk \(chunk)")
            XCTAssertEqual(r.findings.map { $0.location.byteOffset }, expected.map(\.offset), "chunk \(chunk)")
            XCTAssertEqual(r.stats.bytes, text.utf8.count, "every byte counted once, chunk \(chunk)")
        }
    }

    func testColumnsOnLinesLongerThanAChunkCountFromTheLineStart() {
        let tree = TempDir()
        // ASCII, then two-byte scalars (columns count scalars, not bytes), on one line each.
        let ascii = String(repeating: "w", count: 1000) + " "
        let wide = String(repeating: "é", count: 700) + " "
        let text = "first\n" + ascii + TestRules.token + "\n" + wide + TestRules.token + " tail\n"
        tree.write("long-lines.txt", text)
        for chunk in [256, 512, 1000, 1 << 20] {
            let r = runScan([tree.path]) { $0.chunkSize = chunk }
            XCTAssertEqual(r.issues, [])
            XCTAssertEqual(r.findings.map { $0.location.line! }, [2, 3], "chunk \(chunk)")
            XCTAssertEqual(r.findings.map { $0.location.column! }, [1002, 702], "chunk \(chunk)")
            XCTAssertEqual(r.findings.map { $0.location.endColumn! }, [1002, 702].map { $0 + TestRules.token.count }, "chunk \(chunk)")
            XCTAssertEqual(r.findings.map { $0.location.byteOffset }, [6 + 1001, 6 + 1001 + TestRules.token.utf8.count + 1 + 1401], "chunk \(chunk)")
        }
    }

    /// A rule whose match (312 bytes) is longer than the overlap of 1 KiB chunks (256).
    static let longRule = "[[rules]]\nid = 'long'\nregex = '''LONGKEY_([A-Z]{300})_END'''\nkeywords = ['longkey_']\n"

    func testMatchesLongerThanTheOverlapAreFoundWhereverTheyCrossABoundary() {
        let rules = TestRules.set(extra: Self.longRule)
        let long = "LONGKEY_" + TestRules.upperNoise(300) + "_END"
        for start in stride(from: 500, through: 1700, by: 23) {
            let tree = TempDir()
            let text = String(repeating: "x", count: start - 1) + "\n" + long + "\n"
                + String(repeating: "filler line\n", count: 200) + "k = \(TestRules.token)\n"
            tree.write("long.txt", text)
            let r = runScan([tree.path], rules: rules) { $0.chunkSize = 1024 }
            XCTAssertEqual(r.issues, [], "start \(start)")
            XCTAssertEqual(r.findings.map(\.rule), ["long", "token"], "start \(start)")
            XCTAssertEqual(r.findings.first?.location.byteOffset, start + 8, "start \(start)")
            XCTAssertEqual(r.findings.first?.location.line, 2, "start \(start)")
            XCTAssertEqual(r.findings.first?.location.column, 9, "start \(start)")
            XCTAssertEqual(r.findings.last?.location.line, 203, "start \(start)")
            XCTAssertEqual(r.stats.bytes, text.utf8.count, "every byte counted once, start \(start)")
        }
    }

    func testAMatchLongerThanHalfAChunkAcrossABoundaryIsAnErrorEntry() {
        let rules = TestRules.set(extra: "[[rules]]\nid = 'huge'\nregex = '''HUGEKEY_([A-Z]{2000})_END'''\nkeywords = ['hugekey_']\n")
        let tree = TempDir()
        tree.write("huge.txt", "k = \(TestRules.token)\nHUGEKEY_" + TestRules.upperNoise(2000) + "_END\n"
                   + String(repeating: "filler line\n", count: 300))
        let r = runScan([tree.path], rules: rules) { $0.chunkSize = 1024 }
        XCTAssertEqual(r.findings.map(\.rule), ["token"])
        XCTAssertEqual(r.issues.count, 1, "\(r.issues)")
        XCTAssertTrue(r.issues.first?.message.contains("`huge`") ?? false, "\(r.issues)")
        XCTAssertTrue(r.issues.first?.message.contains("read boundary") ?? false, "\(r.issues)")
        // In one chunk, the same file is complete.
        let whole = runScan([tree.path], rules: rules)
        XCTAssertEqual(whole.issues, [])
        XCTAssertEqual(whole.findings.map(\.rule), ["token", "huge"])
    }

    func testBinaryFileYieldsRawLocationsFromPrintableRuns() {
        let tree = TempDir()
        var data = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) | 0x80 })
        data[10] = 0
        let offset = data.count
        data.append(Data(TestRules.token.utf8))
        data.append(Data([0, 1, 2, 0xFF]))
        tree.write("blob.bin", data)
        let r = runScan([tree.path]) { $0.chunkSize = 1024 }
        XCTAssertEqual(r.findings.count, 1)
        let l = r.findings[0].location
        XCTAssertEqual(l.kind, .binary)
        XCTAssertEqual(l.format, "raw")
        XCTAssertEqual(l.fileOffset, offset)
        XCTAssertNil(l.line)
        XCTAssertEqual(r.stats.binaries, 1)
    }

    func testSparseFileHolesAreSkippedAndTheKeyNearTheEndFound() throws {
        let tree = TempDir()
        let path = tree.path + "/sparse.img"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let size: UInt64 = 2 << 30
        let at = size - 4096
        try handle.seek(toOffset: at)
        try handle.write(contentsOf: Data("\u{0}key: \(TestRules.token)\u{0}".utf8))
        try handle.truncate(atOffset: size)
        try handle.close()
        let started = Date()
        let r = runScan([tree.path]) { $0.maxFileSize = 4 << 30 }
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
        XCTAssertEqual(r.issues, [])
        XCTAssertEqual(r.findings.count, 1)
        XCTAssertEqual(r.findings.first?.location.fileOffset, Int(at) + 6)
    }
}
