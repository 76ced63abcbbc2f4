import Foundation
import XCTest
import TestSupport

/// A repository whose own configuration tries to run programs (fsmonitor, pager, filter and
/// diff drivers, textconv, external diff, hooks). keyshape's scans run none of them.
final class HistoryHostileTests: XCTestCase {
    let key = canary("HostileKey77")

    func testRepositoryConfigurationRunsNothing() throws {
        let repo = GitFixture()
        let markers = repo.dir.path + "/markers"
        try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)
        let evil = repo.dir.path + "/evil.sh"
        try Data("#!/bin/sh\ntouch \"\(markers)/$1\"\ncat\n".utf8).write(to: URL(fileURLWithPath: evil))
        chmod(evil, 0o755)
        let hooks = repo.dir.path + "/evil-hooks"
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        for hook in ["pre-commit", "post-index-change", "reference-transaction", "post-checkout", "pre-push"] {
            try Data("#!/bin/sh\ntouch \"\(markers)/hook-\(hook)\"\n".utf8).write(to: URL(fileURLWithPath: hooks + "/" + hook))
            chmod(hooks + "/" + hook, 0o755)
        }
        repo.write("config.txt", "k=\(key)\n")
        repo.write("notes.md", "notes\n")
        repo.commit("key")
        repo.write("config.txt", "k=\(key)\nmore\n")
        repo.write("staged.txt", "s=\(key)\n")
        repo.git(["add", "-A"])
        let settings: [(String, String)] = [
            ("core.fsmonitor", "\(evil) fsmonitor"),
            ("core.pager", "\(evil) pager"),
            ("pager.log", "\(evil) pager-log"),
            ("core.hooksPath", hooks),
            ("filter.evil.clean", "\(evil) filter-clean"),
            ("filter.evil.smudge", "\(evil) filter-smudge"),
            ("filter.evil.process", "\(evil) filter-process"),
            ("filter.evil.required", "true"),
            ("diff.evil.textconv", "\(evil) textconv"),
            ("diff.evil.command", "\(evil) diff-command"),
            ("diff.external", "\(evil) diff-external"),
            ("log.showSignature", "true"),
            ("gpg.program", "\(evil) gpg"),
            ("core.sshCommand", "\(evil) ssh"),
            ("core.askPass", "\(evil) askpass"),
            ("credential.helper", "!\(evil) credential"),
            ("remote.origin.url", "ext::\(evil) remote-ext"),
            ("remote.origin.promisor", "true"),
            ("extensions.partialClone", "origin"),
            ("core.alternateRefsCommand", "\(evil) alternate-refs"),
        ]
        for (k, v) in settings { repo.git(["config", k, v]) }
        repo.write(".gitattributes", "* filter=evil diff=evil\n")
        repo.write(".git/info/attributes", "* filter=evil diff=evil\n")

        func markersPresent() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: markers)) ?? []).sorted() }

        // Control: plain git does run them.
        _ = runProcess(GitFixture.gitPath, ["-C", repo.path, "diff", "--cached"], env: repo.environment())
        _ = runProcess(GitFixture.gitPath, ["-C", repo.path, "status"], env: repo.environment())
        XCTAssertFalse(markersPresent().isEmpty, "the hostile configuration is live for plain git")
        try FileManager.default.removeItem(atPath: markers)
        try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)

        // keyshape: history (with unreachable objects) and staged, in text and JSON.
        for args in [["history", repo.path, "--all-objects"], ["history", repo.path, "--format", "json"],
                     ["staged", repo.path], ["staged", repo.path, "--format", "sarif"]] {
            let r = keyshape(args + ["--no-progress"])
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            assertNoFragment(of: key, in: r.stdout + r.stderr, "\(args)")
        }
        let h = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertTrue(h.stdout.contains(" config.txt:1:3: keyshape-canary"), h.stdout)
        let s = keyshape(["staged", repo.path, "--no-progress"])
        XCTAssertTrue(s.stdout.contains("staged.txt:1:3: keyshape-canary"), s.stdout)
        XCTAssertEqual(markersPresent(), [], "no configured program ran")
    }
}
