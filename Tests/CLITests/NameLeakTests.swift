import Foundation
import XCTest
import TestSupport

/// A key in a name (a file, a folder, an archive member, a path in history) is withheld in
/// every output: the place prints `[withheld]` where a rule's pattern matched the name, and
/// the fingerprint is made of the name it prints. The file is still read.
final class NameLeakTests: XCTestCase {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    let token: String = {
        var g = SeededGenerator(seed: 91)
        return "ghp_" + String((0..<36).map { _ in NameLeakTests.alphabet[Int(g.next() % 62)] })
    }()

    func testAKeyInAFileOrFolderNameIsWithheldInEveryFormat() {
        let tmp = TempDir()
        let inside = canary("nameLeak1")
        tmp.write("tree/\(token)/notes-\(token).txt", "token = \(inside)\n")
        for format in ["text", "json", "jsonl", "sarif", "csv", "junit", "html", "markdown", "gitlab"] {
            let r = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress", "--format", format])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            assertNoFragment(of: token, in: r.stdout + r.stderr, format)
            assertNoFragment(of: inside, in: r.stdout + r.stderr, format)
            // SARIF's URIs are percent-encoded.
            XCTAssertTrue(r.stdout.contains("[withheld]") || r.stdout.contains("%5Bwithheld%5D"), "\(format): \(r.stdout)")
        }
    }

    func testAKeyInAnArchiveMemberNameIsWithheld() throws {
        let tmp = TempDir()
        let inside = canary("nameLeak2")
        tmp.write("w/\(token).env", "token = \(inside)\n")
        let zip = runProcess("/usr/bin/env", ["sh", "-c", "cd '\(tmp.path)/w' && zip -q ../bundle.zip *.env && rm -r '\(tmp.path)/w'"])
        XCTAssertEqual(zip.status, 0, zip.stderr)
        let r = keyshape(["scan", tmp.path, "--no-config", "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoFragment(of: token, in: r.stdout + r.stderr, "output")
        XCTAssertTrue(r.stdout.contains("[withheld].env"), r.stdout)
    }

    func testAKeyInAPathInHistoryIsWithheld() {
        let repo = GitFixture()
        let inside = canary("nameLeak3")
        repo.write("cache/\(token).json", "{\"token\": \"\(inside)\"}\n")
        repo.commit("cache")
        let r = keyshape(["history", repo.path, "--no-config", "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoFragment(of: token, in: r.stdout + r.stderr, "output")
        XCTAssertTrue(r.stdout.contains("cache/[withheld].json"), r.stdout)
    }
}
