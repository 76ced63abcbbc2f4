import Foundation
import XCTest
import ScanCore
import FileInputs
@testable import ScanPipeline
import TestSupport

/// Trees whose links or names could multiply the work or merge two files into one: each
/// real folder is walked once and each real file reported once, under its own identity.
/// Every tree is built here at run time.
final class LinkedTreeTests: XCTestCase {
    /// Folder i holds two links to folder i+1: 2^depth paths lead to the bottom.
    static func linkDAG(in tree: TempDir, depth: Int) throws {
        for i in 0...depth { try FileManager.default.createDirectory(atPath: tree.path + "/chain/\(i)", withIntermediateDirectories: true) }
        for i in 0..<depth {
            for link in ["a", "b"] {
                try FileManager.default.createSymbolicLink(atPath: tree.path + "/chain/\(i)/\(link)", withDestinationPath: "../\(i + 1)")
            }
        }
        tree.write("chain/\(depth)/key.txt", "k = \(TestRules.token)\n")
    }

    func testLinkDAGIsWalkedOncePerRealFolder() throws {
        let tree = TempDir()
        try Self.linkDAG(in: tree, depth: 40)
        let started = Date()
        let scanned = Scanner(ruleSet: TestRules.set(), options: { var o = ScanOptions(jobs: 2); o.followSymlinks = true; return o }())
            .scan(paths: [tree.path])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "2^40 paths must not mean 2^40 walks")
        XCTAssertEqual(scanned.result.issues, [])
        XCTAssertEqual(scanned.result.findings.count, 1, "the one real file is reported once")
        XCTAssertEqual(scanned.result.stats.files, 1)
        XCTAssertTrue(scanned.notes.contains { $0.message.contains("reached again") }, "\(scanned.notes)")
    }

    func testLinksToOneFileAndLoopsReportItOnce() throws {
        let tree = TempDir()
        tree.write("real/key.txt", "k = \(TestRules.token)\n")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/real/again.txt", withDestinationPath: "key.txt")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/real/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/other", withDestinationPath: "real")
        XCTAssertEqual(link(tree.path + "/real/key.txt", tree.path + "/hard.txt"), 0)
        let followed = Scanner(ruleSet: TestRules.set(), options: { var o = ScanOptions(jobs: 1); o.followSymlinks = true; return o }())
            .scan(paths: [tree.path])
        XCTAssertEqual(followed.result.findings.map { $0.location.path }, ["hard.txt"], "first in walk order, once")
        XCTAssertTrue(followed.notes.contains { $0.message.contains("loop") }, "\(followed.notes)")
        // Not following links, the hard link still names the same file.
        XCTAssertEqual(runScan([tree.path]).findings.map { $0.location.path }, ["hard.txt"])
    }

    func testNamesDifferingOnlyInInvalidUTF8AreTwoPlaces() throws {
        let tree = TempDir()
        for byte: UInt8 in [0xFF, 0xFE] {
            let name = Array((tree.path + "/k").utf8) + [byte] + Array(".txt".utf8)
            let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let text = Array("k = \(TestRules.token)\n".utf8)
            XCTAssertEqual(write(fd, text, text.count), text.count)
            close(fd)
        }
        let all = runScan([tree.path]).findings
        XCTAssertEqual(all.map { $0.location.path }, ["k\\xfe.txt", "k\\xff.txt"], "invalid bytes escaped, so the two print apart")
        XCTAssertEqual(Set(all.map(\.fingerprint)).count, 2)
        let rest = runScan([tree.path]) { $0.baseline = [all[0].fingerprint] }.findings
        XCTAssertEqual(rest.map { $0.location.path }, ["k\\xff.txt"], "a baseline of one hides only that one")
    }

    func testPathTextEscapesOnlyInvalidBytes() {
        XCTAssertEqual(PathText.display(Array("a/é🔑.txt".utf8)), "a/é🔑.txt")
        XCTAssertEqual(PathText.display([0x61, 0xC3]), "a\\xc3", "truncated sequence")
        XCTAssertEqual(PathText.display([0xC0, 0xAF]), "\\xc0\\xaf", "overlong form")
        XCTAssertEqual(PathText.display([0xED, 0xA0, 0x80]), "\\xed\\xa0\\x80", "surrogate")
        XCTAssertEqual(PathText.display([0xF4, 0x90, 0x80, 0x80]), "\\xf4\\x90\\x80\\x80", "past U+10FFFF")
        XCTAssertEqual(PathText.display([0xE2, 0x82, 0xAC, 0xFF]), "€\\xff")
    }
}
