import Foundation
import XCTest
import TestSupport

/// Case 5: `[scan] followSymlinks = true` and a link to `/proc/self/environ` made keyshape read
/// its own environment (the CI job's token) and report it. A link is now followed only to a
/// target inside the folders asked for, whoever asked for links to be followed; one leading
/// out is a note, not read.
final class SymlinkBoundaryTests: XCTestCase {
    func findings(_ r: Run) -> [[String: Any]] {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return object?["findings"] as? [[String: Any]] ?? []
    }

    func link(_ path: String, to target: String) {
        XCTAssertNoThrow(try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target))
    }

    func testLinkToProcessEnvironmentIsNotRead() throws {
        try XCTSkipUnless(FileManager.default.isReadableFile(atPath: "/proc/self/environ"), "no /proc")
        let tmp = TempDir()
        let token = canary("environ1")
        tmp.write("tree/a.txt", "nothing here\n")
        link(tmp.path + "/tree/env", to: "/proc/self/environ")
        var env = ProcessInfo.processInfo.environment
        env["CI_JOB_TOKEN"] = token

        // The repository asks; and the user asks with --follow.
        tmp.write("tree/.keyshape.toml", "[scan]\nfollowSymlinks = true\n")
        for extra in [[], ["--follow"], ["--follow", "--no-config"]] {
            let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"] + extra, env: env)
            assertNoFragment(of: token, in: r.stdout + r.stderr, "output of \(extra)")
            XCTAssertEqual(r.status, 0, "\(extra): \(r.stderr)")
            XCTAssertEqual(findings(r).count, 0, "\(extra): \(r.stdout)")
            if extra.contains("--follow") {
                XCTAssertTrue(r.stderr.contains("keyshape: note: env: symbolic link leads outside the scanned folders; not followed"), r.stderr)
            }
        }
    }

    /// `..` out of the tree, an absolute path, a chain of links: judged by where they end. A
    /// link inside the tree is still followed.
    func testLinksOutOfTheTreeAreNotFollowedAndLinksInsideAre() {
        let tmp = TempDir()
        let outside = canary("outside1"), inside = canary("inside1")
        tmp.write("secret/key.txt", "token = \(outside)\n")
        tmp.write("tree/real/key.txt", "token = \(inside)\n")
        link(tmp.path + "/tree/up", to: "../secret")
        link(tmp.path + "/tree/absolute", to: tmp.path + "/secret/key.txt")
        link(tmp.path + "/tree/hop", to: "real/../up")
        link(tmp.path + "/tree/again", to: "real")
        link(tmp.path + "/tree/real/file", to: "key.txt")
        let r = keyshape(["scan", tmp.path + "/tree", "--follow", "--format", "json", "--no-progress"])
        for s in [outside, inside] { assertNoFragment(of: s, in: r.stdout + r.stderr, "output") }
        XCTAssertEqual(r.status, 1, r.stderr)
        let paths = findings(r).compactMap { ($0["location"] as? [String: Any])?["path"] as? String }
        XCTAssertEqual(paths.count, 1, "the inside key once (the links to it reach it again): \(paths)")
        for name in ["up", "absolute", "hop"] {
            XCTAssertTrue(r.stderr.contains("note: \(name): symbolic link leads outside the scanned folders; not followed"), "\(name): \(r.stderr)")
        }
        // Two roots: a link from one into the other stays inside what was asked for.
        tmp.write("other/k.txt", "token = \(outside)\n")
        link(tmp.path + "/tree/sibling", to: "../other")
        let both = keyshape(["scan", tmp.path + "/tree", tmp.path + "/other", "--follow", "--format", "json", "--no-progress"])
        XCTAssertFalse(both.stderr.contains("sibling: symbolic link leads outside"), both.stderr)
    }

    /// audit reads the files git lists: a listed `d/key.txt` whose folder `d` was swapped for a
    /// link out of the work tree (a tarball can carry that) is not read through the link.
    func testAuditDoesNotReadThroughAFolderLinkOutOfTheWorkTree() throws {
        let repo = GitFixture()
        let outside = canary("gitlink1")
        repo.write("d/key.txt", "nothing here\n")
        repo.commit("plain")
        let elsewhere = repo.dir.path + "/elsewhere"
        repo.dir.write("elsewhere/key.txt", "token = \(outside)\n")
        try FileManager.default.removeItem(atPath: repo.path + "/d")
        link(repo.path + "/d", to: elsewhere)
        let r = keyshapeJSON(["audit", repo.path], secrets: [outside])
        XCTAssertEqual(r.findings.count, 0, "\(places(r.findings)) \(r.run.stderr)")
        XCTAssertTrue(r.run.stderr.contains("d/key.txt: below a symbolic link that leads outside the scanned folders; not read"), r.run.stderr)
    }
}
