import Foundation
import XCTest
import TestSupport

/// The scanned tree's own config is not trusted blindly: it is named in the summary, what it
/// suppresses is counted, `--no-config` and `--ignore-inline-allow` switch it and inline
/// markers off, and a config that would silence every secret is refused.
final class TrustTests: XCTestCase {
    let secret = canary("trust1")

    func stats(_ r: Run) -> [String: Any] {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return object?["stats"] as? [String: Any] ?? [:]
    }

    func suppressed(_ r: Run) -> [String: Int] { stats(r)["suppressed"] as? [String: Int] ?? [:] }

    func testRepositoryConfigThatAllowlistsEverythingIsNamedAndCounted() {
        let tmp = TempDir()
        tmp.write("tree/src/a.txt", "token = \(secret)\n")
        tmp.write("tree/.keyshape.toml", "[[allowlists]]\npaths = ['''.*''']\n")
        let trusted = keyshape(["scan", tmp.path + "/tree", "--no-progress"])
        assertNoFragment(of: secret, in: trusted.stdout + trusted.stderr, "output")
        XCTAssertEqual(trusted.status, 0, "read as the repository asks")
        XCTAssertTrue(trusted.stderr.contains("; config: \(tmp.path)/tree/.keyshape.toml"), trusted.stderr)
        // Read and counted: a repository's path allowlist does not skip reading.
        XCTAssertTrue(trusted.stderr.contains("scanned 2 files"), trusted.stderr)
        XCTAssertTrue(trusted.stderr.contains("suppressed 1 (allowlist 1, inline 0, baseline 0)"), trusted.stderr)

        let untrusted = keyshape(["scan", tmp.path + "/tree", "--no-config", "--no-progress"])
        XCTAssertEqual(untrusted.status, 1, untrusted.stderr)
        XCTAssertTrue(untrusted.stdout.contains("src/a.txt:1:9: keyshape-canary"), untrusted.stdout)
        XCTAssertTrue(untrusted.stderr.contains("config not read (--no-config): \(tmp.path)/tree/.keyshape.toml"), untrusted.stderr)
        XCTAssertFalse(untrusted.stderr.contains("; config: "), untrusted.stderr)
        assertNoFragment(of: secret, in: untrusted.stdout + untrusted.stderr, "output")

        // --no-config with --config FILE: only FILE.
        tmp.write("mine.toml", "[[allowlists]]\nstopwords = ['trust1']\n")
        let pinned = keyshape(["scan", tmp.path + "/tree", "--no-config", "--config", tmp.path + "/mine.toml", "--format", "json"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        XCTAssertEqual(suppressed(pinned), ["allowlist": 1, "inline": 0, "baseline": 0])
        XCTAssertEqual(stats(pinned)["allowlistedFiles"] as? Int, 0, "the tree's paths = ['.*'] was not read")
        XCTAssertTrue(pinned.stderr.contains("; config: \(tmp.path)/mine.toml"), pinned.stderr)
    }

    func testEmptyStopwordIsAConfigError() {
        let tmp = TempDir()
        tmp.write("src/a.txt", "token = \(secret)\n")
        tmp.write(".keyshape.toml", "[[allowlists]]\nstopwords = ['']\n")
        let r = keyshape(["scan", tmp.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains(".keyshape.toml:2:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("empty stopword"), r.stderr)
        assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
        XCTAssertEqual(keyshape(["scan", tmp.path, "--no-config"]).status, 1)
    }

    /// A repository's config cannot switch rules off.
    func testConfigCannotDisableRules() {
        let tmp = TempDir()
        tmp.write("a.txt", "token = \(secret)\n")
        tmp.write(".keyshape.toml", "[extend]\ndisabledRules = ['keyshape-canary']\n[[rules]]\nid = 'keyshape-canary'\nregex = 'never'\n")
        let r = keyshape(["scan", tmp.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("disabledRules` is ignored in a config file"), r.stderr)
        XCTAssertTrue(r.stderr.contains("a config cannot replace a loaded rule"), r.stderr)
    }

    func testIgnoreInlineAllowReportsMarkedLines() {
        let tmp = TempDir()
        tmp.write("a.txt", "token = \(secret) # keyshape:allow\nother = \(canary("trust2")) // gitleaks:allow\n")
        let honoured = keyshape(["scan", tmp.path, "--format", "json"])
        XCTAssertEqual(honoured.status, 0, honoured.stderr)
        XCTAssertEqual(suppressed(honoured), ["allowlist": 0, "inline": 2, "baseline": 0])
        XCTAssertTrue(honoured.stderr.contains("suppressed 2 (allowlist 0, inline 2, baseline 0)"), honoured.stderr)
        let ignored = keyshape(["scan", tmp.path, "--ignore-inline-allow", "--format", "json"])
        XCTAssertEqual(ignored.status, 1, ignored.stderr)
        XCTAssertEqual(suppressed(ignored)["inline"], 0)
        XCTAssertEqual(((ignored.report)?["findings"] as? [Any])?.count, 2)
    }

    /// One finding of each kind of suppression, in a repository: scan, history, staged and
    /// audit count them alike, and the baseline is counted as such.
    func testAllFourCommandsCountSuppressions() {
        let repo = GitFixture()
        // A path allowlist aimed at a rule: the repository may suppress by place (counted), not
        // by what the value or its line says (see RepositoryRuleOracleTests).
        repo.write(".keyshape.toml", "[[allowlists]]\ntargetRules = ['keyshape-canary']\npaths = ['''^c\\.txt$''']\n")
        repo.write("a.txt", "token = \(canary("plainA1"))\n")
        repo.write("b.txt", "token = \(canary("inlineB1")) # keyshape:allow\n")
        repo.write("c.txt", "token = \(canary("listedC1")) ALLOWME\n")
        let secrets = [canary("plainA1"), canary("inlineB1"), canary("listedC1")]
        let expected = ["allowlist": 1, "inline": 1, "baseline": 0]
        repo.git(["add", "-A"])
        let staged = keyshapeJSON(["staged", repo.path], secrets: secrets)
        XCTAssertEqual(staged.run.status, 1, staged.run.stderr)
        XCTAssertEqual(suppressed(staged.run), expected, "staged")
        XCTAssertTrue(staged.run.stderr.contains("; config: \(repo.path)/.keyshape.toml"), staged.run.stderr)
        repo.commit("three")
        for command in ["scan", "history"] {
            let r = keyshapeJSON([command, repo.path], secrets: secrets)
            XCTAssertEqual(r.run.status, 1, "\(command): \(r.run.stderr)")
            XCTAssertEqual(r.findings.count, 1, command)
            XCTAssertEqual(suppressed(r.run), expected, command)
        }
        let audit = keyshapeJSON(["audit", repo.path], secrets: secrets)
        XCTAssertEqual(suppressed(audit.run), ["allowlist": 2, "inline": 2, "baseline": 0], "audit: sources and history")

        let baseline = repo.dir.path + "/baseline.json"
        XCTAssertEqual(keyshape(["audit", repo.path, "--write-baseline", baseline, "--no-progress"]).status, 1)
        let quiet = keyshapeJSON(["audit", repo.path, "--baseline", baseline], secrets: secrets)
        XCTAssertEqual(quiet.run.status, 0, quiet.run.stderr)
        XCTAssertEqual(suppressed(quiet.run), ["allowlist": 2, "inline": 2, "baseline": 2])
        XCTAssertTrue(quiet.run.stderr.contains("suppressed 6 (allowlist 2, inline 2, baseline 2)"), quiet.run.stderr)

        // What the repository's config and markers hid, reported anyway.
        let audited = keyshapeJSON(["history", repo.path, "--no-config", "--ignore-inline-allow"], secrets: secrets)
        XCTAssertEqual(audited.findings.count, 3, audited.run.stderr)
        XCTAssertEqual(suppressed(audited.run), ["allowlist": 0, "inline": 0, "baseline": 0])
    }

    /// A secret inline-allowed at one commit and unmarked at the next is reported at the
    /// next (counting suppressed findings must not make them count as "already there").
    func testHistoryReportsASecretWhenItsMarkerIsRemoved() {
        let repo = GitFixture()
        repo.write("a.txt", "token = \(secret) # keyshape:allow\n")
        repo.commit("marked")
        repo.write("a.txt", "token = \(secret)\n")
        let unmarked = repo.commit("unmarked")
        let r = keyshapeJSON(["history", repo.path], secrets: [secret])
        XCTAssertEqual(places(r.findings), ["\(unmarked) a.txt:1"], r.run.stderr)
        XCTAssertEqual(suppressed(r.run), ["allowlist": 0, "inline": 1, "baseline": 0])
        let all = keyshapeJSON(["history", repo.path, "--ignore-inline-allow"], secrets: [secret])
        XCTAssertEqual(all.findings.count, 1, "one secret, added once, once the marker is not honoured")
    }

    func testIncludeSuppressedMarksThemInSARIFAndJSON() throws {
        let tmp = TempDir()
        tmp.write("tree/a.txt", "token = \(secret) # keyshape:allow\n")
        tmp.write("tree/b.txt", "token = \(canary("trust3"))\n")
        tmp.write("tree/.keyshape.toml", "[[allowlists]]\ntargetRules = ['keyshape-canary']\npaths = ['''^b\\.txt$''']\n")
        let report = tmp.path + "/r.sarif"
        let r = keyshape(["scan", tmp.path + "/tree", "--include-suppressed", "--format", "sarif", "--output", report])
        XCTAssertEqual(r.status, 0, "suppressed findings do not change the exit status: \(r.stderr)")
        let text = tmp.read("r.sarif")
        assertNoFragment(of: secret, in: text, "sarif")
        let object = try XCTUnwrap(JSONReport.object(text))
        let results = (object["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]]
        let kinds = results.map { (($0["suppressions"] as? [[String: Any]]) ?? []).map { $0["kind"] as! String } }
        XCTAssertEqual(kinds.sorted { "\($0)" < "\($1)" }, [["external"], ["inSource"]])
        let v = ProcessInfo.processInfo.environment["KEYSHAPE_PYTHON"].map { runProcess($0, [Repo.path("scripts/validate-sarif"), report]) }
            ?? runProcess("/usr/bin/env", ["python3", Repo.path("scripts/validate-sarif"), report])
        XCTAssertEqual(v.status, 0, v.stderr + v.stdout)

        let json = keyshape(["scan", tmp.path + "/tree", "--include-suppressed", "--format", "json"])
        let listed = ((try XCTUnwrap(json.report))["suppressed"] as? [[String: Any]]) ?? []
        XCTAssertEqual(listed.compactMap { $0["suppression"] as? String }.sorted(), ["allowlist", "inline"])
        let plain = keyshape(["scan", tmp.path + "/tree", "--format", "sarif"])
        XCTAssertFalse(plain.stdout.contains("suppressions"), "only when asked")
    }
}
