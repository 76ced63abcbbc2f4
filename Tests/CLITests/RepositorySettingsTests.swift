import Foundation
import XCTest
import TestSupport

/// What the scanned root's own config may decide (SettingPolicy): limits, what is read and
/// the hash key are the user's; a repository's setting of them is ignored with a warning that
/// names the place, never the value; a repository's path allowlist suppresses, counted and
/// visible, with its files still read.
final class RepositorySettingsTests: XCTestCase {
    func report(_ r: Run) -> [String: Any] {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return object ?? [:]
    }

    func stats(_ r: Run) -> [String: Any] { report(r)["stats"] as? [String: Any] ?? [:] }
    func suppressed(_ r: Run) -> [String: Int] { stats(r)["suppressed"] as? [String: Int] ?? [:] }
    func findings(_ r: Run) -> [[String: Any]] { report(r)["findings"] as? [[String: Any]] ?? [] }

    /// The findings in one file (a config holding a key-shaped setting may be a finding too).
    func findings(_ r: Run, in path: String) -> [[String: Any]] { r.findings(in: path) }

    /// Case 4: `minStringLength = 1024` and one NUL byte at the top of a text file hid its
    /// five keys (exit 0, nothing counted). The repository's value is now ignored.
    func testRepositoryMinStringLengthIsIgnored() {
        let tmp = TempDir()
        let secrets = (1...5).map { canary("minlen\($0)") }
        tmp.write("tree/.keyshape.toml", "[scan]\nminStringLength = 1024\n")
        tmp.write("tree/keys.txt", "\0\n" + secrets.map { "token = \($0)\n" }.joined())
        let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        for s in secrets { assertNoFragment(of: s, in: r.stdout + r.stderr, "output") }
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(findings(r, in: "keys.txt").count, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(tmp.path)/tree/.keyshape.toml:2:1: warning: `[scan] minStringLength` is ignored in the scanned root's config"), r.stderr)

        // The same setting from the user's own --config FILE is honoured.
        tmp.write("mine.toml", "[scan]\nminStringLength = 1024\n")
        let user = keyshape(["scan", tmp.path + "/tree", "--no-config", "--config", tmp.path + "/mine.toml", "--format", "json", "--no-progress"])
        XCTAssertEqual(user.status, 0, user.stderr)
        XCTAssertEqual(findings(user, in: "keys.txt").count, 0, user.stderr)
        XCTAssertFalse(user.stderr.contains("warning"), user.stderr)
    }

    /// A repository's `hashKey` would be a key every reader of the report knows: ignored,
    /// so the hashes and fingerprints are those of a run without it.
    func testRepositoryHashKeyIsIgnored() {
        let tmp = TempDir()
        let secret = canary("hashkey1")
        let chosen = "hk-" + "chosen-by-the-repository-77"
        tmp.write("plain/a.txt", "token = \(secret)\n")
        tmp.write("plain/.keyshape.toml", "[scan]\n")
        tmp.write("keyed/a.txt", "token = \(secret)\n")
        tmp.write("keyed/.keyshape.toml", "# the repository's key\n[scan]\nhashKey = '\(chosen)'\n")
        var env = ProcessInfo.processInfo.environment
        env["KEYSHAPE_HASH_KEY"] = nil
        let plain = keyshape(["scan", tmp.path + "/plain", "--format", "json", "--no-progress"], env: env)
        let keyed = keyshape(["scan", tmp.path + "/keyed", "--format", "json", "--no-progress"], env: env)
        XCTAssertEqual(keyed.status, 1, keyed.stderr)
        // Without a key of the user's, each run hashes under a random key of its own and the
        // fingerprint holds no value; a key honoured from the repository would key both.
        let fields = { (r: Run) in self.findings(r, in: "a.txt").map { "\($0["fingerprint"] ?? "-")" } }
        XCTAssertEqual(fields(keyed).count, 1)
        XCTAssertEqual(fields(keyed), fields(plain), "the repository's hashKey changed the fingerprints")
        XCTAssertTrue(keyed.stderr.contains("\(tmp.path)/keyed/.keyshape.toml:3:1: warning: `[scan] hashKey` is ignored in the scanned root's config"), keyed.stderr)
        assertNoFragment(of: chosen, in: keyed.stdout + keyed.stderr, "output")
        assertNoFragment(of: secret, in: keyed.stdout + keyed.stderr, "output")
    }

    /// Every user-only `[scan]` setting in a repository's config: one warning each, at its
    /// file:line:column, no value (values here are canaries, as a hostile file could make
    /// them); the scan runs with the defaults (a 10-byte `maxFileSize` would leave the file
    /// unread, exit 2; `followSymlinks` would read the link).
    func testEveryUserOnlySettingIsIgnoredWithItsPlace() {
        let tmp = TempDir()
        let secret = canary("limits1")
        // Distinctive text, not canaries: the config file is scanned too.
        let values = ["maxFileSize": "zq" + "size-from-the-repository", "hashKey": "zq" + "key-from-the-repository"]
        tmp.write("tree/a.txt", "token = \(secret)\n")
        tmp.write("tree/.keyshape.toml", """
            [scan]
            maxFileSize = 10
            minStringLength = 1024
            followSymlinks = true
              hashKey = '\(values["hashKey"]!)'
            """)
        tmp.write("other/.keyshape.toml", "[scan]\nmaxFileSize = '\(values["maxFileSize"]!)'\n")
        let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, "scanned with the defaults: \(r.stderr)")
        XCTAssertEqual(findings(r, in: "a.txt").count, 1, r.stderr)
        XCTAssertEqual((report(r)["errors"] as? [Any])?.count ?? 0, 0, "no file left unread: \(r.stderr)")
        let config = tmp.path + "/tree/.keyshape.toml"
        for (line, column, key) in [(2, 1, "maxFileSize"), (3, 1, "minStringLength"), (4, 1, "followSymlinks"), (5, 3, "hashKey")] {
            XCTAssertTrue(r.stderr.contains("\(config):\(line):\(column): warning: `[scan] \(key)` is ignored in the scanned root's config"), "\(key): \(r.stderr)")
        }
        for v in values.values { assertNoFragment(of: v, in: r.stdout + r.stderr, "output") }
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")

        // A value that would be an error from the user is not even read from the repository.
        let other = keyshape(["scan", tmp.path + "/other", "--no-progress"])
        XCTAssertNotEqual(other.status, 2, other.stderr)
        XCTAssertTrue(other.stderr.contains("other/.keyshape.toml:2:1: warning: `[scan] maxFileSize` is ignored"), other.stderr)
        for v in values.values { assertNoFragment(of: v, in: other.stdout + other.stderr, "output") }
    }

    /// `[extend] useDefault = false` in a `.keyshape.toml` had no effect and said nothing: now
    /// it says it is ignored (the builtin rules run).
    func testUseDefaultInAConfigFileIsIgnoredWithAWarning() {
        let tmp = TempDir()
        let secret = canary("usedefault1")
        tmp.write("tree/a.txt", "token = \(secret)\n")
        tmp.write("tree/.keyshape.toml", "[extend]\nuseDefault = false\n")
        let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
        XCTAssertEqual(findings(r, in: "a.txt").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("`[extend] useDefault = false` is ignored in a config file"), r.stderr)
    }

    /// Case 6: `paths = ['''.*''']` in the repository's config made its files "not read",
    /// counted as allowlisted files but not in `stats.suppressed`. Now they are read and what
    /// the allowlist hides is counted there and shown with --include-suppressed; the user's
    /// own path allowlist still skips reading.
    func testRepositoryPathAllowlistIsCountedAndVisible() {
        let tmp = TempDir()
        let secret = canary("pathall1")
        tmp.write("tree/src/a.txt", "token = \(secret)\n")
        tmp.write("tree/.keyshape.toml", "[[allowlists]]\npaths = ['''.*''']\n")
        let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
        XCTAssertEqual(r.status, 0, "suppressed, not reported: \(r.stderr)")
        XCTAssertEqual(suppressed(r)["allowlist"], 1, r.stderr)
        XCTAssertEqual(stats(r)["allowlistedFiles"] as? Int, 0, "the repository's allowlist does not skip reading")
        XCTAssertTrue(r.stderr.contains("suppressed 1 (allowlist 1, inline 0, baseline 0)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("not read (allowlisted by path)"), r.stderr)

        let shown = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--include-suppressed", "--no-progress"])
        assertNoFragment(of: secret, in: shown.stdout + shown.stderr, "output")
        let kept = report(shown)["suppressed"] as? [[String: Any]] ?? []
        XCTAssertEqual(kept.count, 1, shown.stdout)
        XCTAssertEqual(kept.first?["suppression"] as? String, "allowlist")
        XCTAssertEqual((kept.first?["location"] as? [String: Any])?["path"] as? String, "src/a.txt")

        // The user's own config: files it covers by path are not read (they chose it).
        tmp.write("mine.toml", "[[allowlists]]\npaths = ['''.*''']\n")
        let user = keyshape(["scan", tmp.path + "/tree", "--config", tmp.path + "/mine.toml", "--format", "json", "--no-progress"])
        XCTAssertEqual(user.status, 0, user.stderr)
        XCTAssertEqual(stats(user)["allowlistedFiles"] as? Int, 2, user.stderr)
        XCTAssertEqual(suppressed(user)["allowlist"], 0, user.stderr)
    }

    /// The same in history: a blob at a path the repository allowlists is read and counted.
    func testRepositoryPathAllowlistInHistoryIsCounted() {
        let repo = GitFixture()
        let secret = canary("pathhist1")
        repo.write(".keyshape.toml", "[[allowlists]]\npaths = ['''^fixtures/''']\n")
        repo.write("fixtures/a.txt", "token = \(secret)\n")
        repo.commit("fixture")
        let r = keyshapeJSON(["history", repo.path], secrets: [secret])
        XCTAssertEqual(r.run.status, 0, r.run.stderr)
        XCTAssertEqual(suppressed(r.run)["allowlist"], 1, r.run.stderr)
        XCTAssertEqual(stats(r.run)["allowlistedFiles"] as? Int, 0, r.run.stderr)
    }
}
