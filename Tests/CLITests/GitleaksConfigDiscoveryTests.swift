import Foundation
import XCTest
import TestSupport

/// Where a gitleaks config comes from: the scanned root's `.gitleaks.toml` (when there is no
/// `.keyshape.toml`), `GITLEAKS_CONFIG` and `GITLEAKS_CONFIG_TOML` (when no `--rules` or
/// `--config` is given); and what a root's `.gitleaks.toml` cannot do.
final class GitleaksConfigDiscoveryTests: XCTestCase {
    let secret = canary("glcfg1")
    /// A made-up token only the gitleaks config's rule knows.
    let teamToken = "team_" + "k3j9x2m7q4"

    static let teamRule = #"""
    [[rules]]
    id = "team-token"
    description = "Team token"
    regex = '''team_([a-z0-9]{10})'''
    keywords = ["team_"]
    """#

    func json(_ r: Run) -> [String: Any] {
        r.report ?? [:]
    }

    func rules(_ r: Run) -> [String] {
        ((json(r)["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }.sorted()
    }

    func tree() -> TempDir {
        let dir = TempDir()
        dir.write("tree/a.txt", "token = \(secret)\nother = \(teamToken)\n")
        return dir
    }

    /// Before this change the root's `.gitleaks.toml` was never read (team-token unknown).
    func testRootGitleaksTomlIsReadWhenThereIsNoKeyshapeToml() {
        let dir = tree()
        dir.write("tree/.gitleaks.toml", Self.teamRule)
        let run = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(rules(run), ["keyshape-canary", "team-token"], "its rules add to the builtin pack")
        XCTAssertTrue(run.stderr.contains("; config: \(dir.path)/tree/.gitleaks.toml"), run.stderr)
        assertNoFragment(of: secret, in: run.stdout + run.stderr, "output")

        // .keyshape.toml takes precedence: the gitleaks file is then not read.
        dir.write("tree/.keyshape.toml", "[scan]\nminStringLength = 8\n")
        let both = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(rules(both), ["keyshape-canary"])
        XCTAssertTrue(both.stderr.contains("; config: \(dir.path)/tree/.keyshape.toml"), both.stderr)
    }

    func testNoConfigIgnoresTheRootGitleaksToml() {
        let dir = tree()
        dir.write("tree/.gitleaks.toml", Self.teamRule)
        let run = keyshape(["scan", dir.path + "/tree", "--no-config", "--format", "json"])
        XCTAssertEqual(rules(run), ["keyshape-canary"])
        XCTAssertTrue(run.stderr.contains("config not read (--no-config): \(dir.path)/tree/.gitleaks.toml"), run.stderr)
    }

    /// A tree's gitleaks config can add findings, not take them away silently: disabledRules,
    /// useDefault = false and a same-id replacement are ignored with warnings; what its
    /// allowlists suppress is counted and the file named.
    func testRootGitleaksTomlCannotSwitchTheScanOffSilently() {
        let dir = tree()
        dir.write("tree/.gitleaks.toml", #"""
        [extend]
        useDefault = false
        disabledRules = ["keyshape-canary"]

        [[rules]]
        id = "keyshape-canary"
        regex = '''never-matches-anything'''
        keywords = ["never-matches"]
        """#)
        let run = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(rules(run), ["keyshape-canary"], "the builtin rule still runs")
        XCTAssertTrue(run.stderr.contains("`[extend] disabledRules` is ignored in the scanned root's config"), run.stderr)
        XCTAssertTrue(run.stderr.contains("`[extend] useDefault = false` is ignored"), run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot replace a loaded rule"), run.stderr)

        // An allowlist that matches every value judges the tree's own rules only: a value
        // check from the tree would answer, finding by finding, whether a key matches it.
        dir.write("tree/.gitleaks.toml", "[allowlist]\nregexes = ['''.*''']\n")
        let hushed = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(hushed.status, 1, hushed.stderr)
        XCTAssertEqual((json(hushed)["stats"] as? [String: Any])?["suppressed"] as? [String: Int], ["allowlist": 0, "inline": 0, "baseline": 0])
        XCTAssertTrue(hushed.stderr.contains("apply to that config's own rules only"), hushed.stderr)
        XCTAssertTrue(hushed.stderr.contains("; config: \(dir.path)/tree/.gitleaks.toml"), hushed.stderr)
        // By place it may (counted).
        dir.write("tree/.gitleaks.toml", "[allowlist]\npaths = ['''\\.txt$''']\ntargetRules = ['keyshape-canary']\n")
        let placed = keyshape(["scan", dir.path + "/tree", "--format", "json"])
        XCTAssertEqual(placed.status, 0, placed.stderr)
        XCTAssertEqual((json(placed)["stats"] as? [String: Any])?["suppressed"] as? [String: Int], ["allowlist": 1, "inline": 0, "baseline": 0])
    }

    /// Before this change neither variable was read.
    func testGitleaksConfigEnvironmentVariables() {
        let dir = tree()
        dir.write("team.toml", Self.teamRule)
        var env = ProcessInfo.processInfo.environment
        env["GITLEAKS_CONFIG"] = dir.path + "/team.toml"
        let byPath = keyshape(["scan", dir.path + "/tree", "--format", "json"], env: env)
        XCTAssertEqual(rules(byPath), ["keyshape-canary", "team-token"], byPath.stderr)
        XCTAssertTrue(byPath.stderr.contains("; config: \(dir.path)/team.toml"), byPath.stderr)

        // --rules (or --config) given: the variable is not read, as gitleaks' --config outranks it.
        dir.write("empty.toml", "")
        let flagged = keyshape(["scan", dir.path + "/tree", "--rules", dir.path + "/empty.toml", "--format", "json"], env: env)
        XCTAssertEqual(rules(flagged), ["keyshape-canary"])

        env["GITLEAKS_CONFIG"] = nil
        env["GITLEAKS_CONFIG_TOML"] = Self.teamRule
        // It also outranks a root .gitleaks.toml, which is then not read.
        dir.write("tree/.gitleaks.toml", "[allowlist]\nregexes = ['''.*''']\n")
        let inline = keyshape(["scan", dir.path + "/tree", "--format", "json"], env: env)
        XCTAssertEqual(rules(inline), ["keyshape-canary", "team-token"], inline.stderr)
        XCTAssertTrue(inline.stderr.contains("; config: $GITLEAKS_CONFIG_TOML"), inline.stderr)
        XCTAssertFalse(inline.stderr.contains(".gitleaks.toml"), inline.stderr)
    }
}
