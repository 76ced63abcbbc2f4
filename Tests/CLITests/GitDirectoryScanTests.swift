import Foundation
import XCTest
import TestSupport

/// A `.git` folder's own files are inputs: a token in a remote URL of `.git/config`, a
/// reflog, a hook, a submodule's config, and the same in a repository nested in the tree,
/// are found by `scan` and `audit` at their real paths. A `.git` file (a `gitdir:` link) is
/// not followed out of the tree.
final class GitDirectoryScanTests: XCTestCase {
    let inConfig = canary("GitConfigUrl61"), inNested = canary("NestedConfig62"), outside = canary("OutsideTree63"),
        inReflog = canary("CloneReflog64"), inHook = canary("WrittenHook65"), inModule = canary("ModuleConfig66")
    var secrets: [String] { [inConfig, inNested, outside, inReflog, inHook, inModule] }

    func places(_ r: Run) -> [String] {
        guard let object = r.report,
              let findings = object["findings"] as? [[String: Any]] else { return [] }
        return findings.compactMap { f in
            guard let loc = f["location"] as? [String: Any], let path = loc["path"] as? String, let line = loc["line"] as? Int else { return nil }
            return "\(path):\(line)"
        }.sorted()
    }

    func assertNothingLeaked(_ r: Run, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for s in secrets { assertNoFragment(of: s, in: r.stdout + r.stderr, what, file: file, line: line) }
    }

    func write(_ path: String, _ text: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func testRemoteURLTokenInGitConfigIsFoundByScanAndAudit() throws {
        let repo = GitFixture()
        repo.write("README.md", "readme\n")
        repo.commit("first")
        repo.git(["remote", "add", "origin", "https://ci:\(inConfig)@git.example.com/team/app.git"])
        for command in ["scan", "audit"] {
            let r = keyshape([command, ".", "--no-progress", "--format", "json"], cwd: repo.path)
            XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)")
            XCTAssertEqual(places(r).filter { $0.hasPrefix(".git/") }.map { String($0.prefix { $0 != ":" }) }, [".git/config"], "\(command): \(r.stdout)")
            assertNothingLeaked(r, command)
        }
        // The text report names the real path.
        let text = keyshape(["scan", ".", "--no-progress"], cwd: repo.path)
        XCTAssertTrue(text.stdout.contains(".git/config:"), text.stdout)
        assertNothingLeaked(text, "text")
    }

    func testNestedRepositoryReflogHookAndSubmoduleConfigsAreRead() throws {
        let repo = GitFixture()
        repo.write("README.md", "readme\n")
        repo.commit("first")
        // A vendored clone inside the work tree (untracked), with a token in its remote.
        let nested = repo.path + "/vendor/lib"
        try TestGit.initRepository(nested)
        try TestGit.run(nested, ["remote", "add", "origin", "https://ci:\(inNested)@git.example.com/lib.git"])
        // What a clone from a URL with a token records, a hook someone wrote, a submodule's git directory.
        write(repo.path + "/.git/logs/refs/remotes/origin/HEAD", "0000000000000000000000000000000000000000 1111111111111111111111111111111111111111 A <a@example.com> 1700000000 +0000\tclone: from https://ci:\(inReflog)@git.example.com/app.git\n")
        write(repo.path + "/.git/hooks/pre-push", "#!/bin/sh\nexport DEPLOY_TOKEN=\(inHook)\n")
        write(repo.path + "/.git/modules/libs/core/config", "[remote \"origin\"]\n\turl = https://ci:\(inModule)@git.example.com/core.git\n")
        let expected = [".git/hooks/pre-push:2", ".git/logs/refs/remotes/origin/HEAD:1", ".git/modules/libs/core/config:2", "vendor/lib/.git/config:"]
        for command in ["scan", "audit"] {
            let r = keyshape([command, ".", "--no-progress", "--format", "json"], cwd: repo.path)
            XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)")
            let found = places(r)
            XCTAssertEqual(found.count, 4, "\(command): \(found)")
            for (place, want) in zip(found, expected) { XCTAssertTrue(place.hasPrefix(want), "\(command): \(found)") }
            assertNothingLeaked(r, command)
        }
    }

    /// A `.git` file naming a git directory outside the tree: that directory's config is
    /// not read (the file itself, a path, is scanned like any file).
    func testGitFileLinkIsNotFollowedOutOfTheTree() throws {
        let tree = TempDir()
        let elsewhere = TempDir()
        write(elsewhere.path + "/gitdir/config", "[remote \"origin\"]\n\turl = https://ci:\(outside)@git.example.com/x.git\n")
        write(tree.path + "/checkout/.git", "gitdir: \(elsewhere.path)/gitdir\n")
        write(tree.path + "/checkout/main.c", "int main(void) { return 0; }\n")
        let r = keyshape(["scan", tree.path, "--no-progress", "--format", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(places(r), [])
        assertNothingLeaked(r, "scan")
    }
}
