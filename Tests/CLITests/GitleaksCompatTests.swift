import Foundation
import XCTest
import TestSupport

/// gitleaks compatibility through the CLI: gitleaks' real default config (carved from an
/// installed gitleaks; skipped, saying why, when there is none) and a config written here
/// that uses every gitleaks feature keyshape honours (always runs).
final class GitleaksCompatTests: XCTestCase {
    /// gitleaks' current default config loads unchanged, every pattern compiles under PCRE2
    /// (user files compile at load, so `rules list` fails on any that does not), and its
    /// path-only rule reports the file.
    func testGitleaksDefaultConfigLoadsAndItsPathOnlyRuleReportsTheFile() throws {
        let text: String
        switch GitleaksDefaultConfig.carve() {
        case .success(let t): text = t
        case .failure(let skip):
            print("skipped: \(skip.reason)")
            throw XCTSkip(skip.reason)
        }
        let dir = TempDir()
        dir.write("gitleaks.toml", text)
        let list = keyshape(["rules", "list", "--no-builtin-rules", "--rules", dir.path + "/gitleaks.toml"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let ids = list.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertGreaterThan(ids.count, 150, "gitleaks 8 has over 200 rules")
        XCTAssertTrue(ids.contains("pkcs12-file"), "the path-only rule is loaded, not refused")
        XCTAssertFalse(list.stderr.contains("warning"), list.stderr)

        dir.write("tree/certs/client.p12", "\u{30}\u{82}not really DER")
        dir.write("tree/README.md", "nothing here\n")
        let scan = keyshape(["scan", dir.path + "/tree", "--no-builtin-rules", "--rules", dir.path + "/gitleaks.toml", "--format", "json"])
        XCTAssertEqual(scan.status, 1, scan.stderr)
        let report = try XCTUnwrap(scan.report)
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["pkcs12-file"])
        let location = try XCTUnwrap(findings.first?["location"] as? [String: Any])
        XCTAssertEqual(location["kind"] as? String, "file")
        XCTAssertEqual(location["path"] as? String, "certs/client.p12")
        XCTAssertNil(location["line"], "a path-only finding has no line")
    }

    /// A path-only rule in a config written here: the file is reported once (not once per
    /// buffer, whatever its size or kind), in text as the bare path, with no line; a file the
    /// pattern does not match is not; an unreadable one still is.
    func testPathOnlyRuleReportsEachMatchingFileOnce() throws {
        let dir = TempDir()
        dir.write("rules.toml", #"""
        [[rules]]
        id = "keystore-file"
        description = "A key store"
        path = '''(?i)(?:^|/)[^/]+\.p(?:12|fx)$'''
        """#)
        dir.write("tree/a.p12", String(repeating: "binary\u{0}data", count: 50_000))
        dir.write("tree/sub/b.PFX", "")
        dir.write("tree/c.p12.txt", "not a key store\n")
        let run = keyshape(["scan", dir.path + "/tree", "--no-builtin-rules", "--rules", dir.path + "/rules.toml"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init).sorted()
        XCTAssertEqual(lines.count, 2, run.stdout)
        XCTAssertTrue(lines[0].hasPrefix("a.p12: keystore-file (A key store) ["), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("sub/b.PFX: keystore-file"), lines[1])

        // The fingerprint stays while the file stays at its path, so a baseline holds it.
        let baseline = dir.path + "/baseline.json"
        XCTAssertEqual(keyshape(["scan", dir.path + "/tree", "--no-builtin-rules", "--rules", dir.path + "/rules.toml",
                                 "--write-baseline", baseline]).status, 1)
        dir.write("tree/a.p12", "changed content")
        let again = keyshape(["scan", dir.path + "/tree", "--no-builtin-rules", "--rules", dir.path + "/rules.toml", "--baseline", baseline])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
    }
}

/// `[extend]` as gitleaks means it, through the CLI.
final class GitleaksExtendTests: XCTestCase {
    static let base = #"""
    [[rules]]
    id = "base-kept"
    regex = '''kept_([a-z0-9]{10})'''
    keywords = ["kept_"]

    [[rules]]
    id = "base-dropped"
    regex = '''dropped_([a-z0-9]{10})'''
    keywords = ["dropped_"]
    """#

    /// `[extend] path` loads the base first (relative to the working directory, as gitleaks
    /// reads it), the file's `disabledRules` removes the base's rule, and an id no rule has is a
    /// warning, not an error. Before this change `path` was only warned about and not followed.
    func testExtendPathLoadsTheBaseAndDisabledRulesWarnsAboutUnknownIds() {
        let dir = TempDir()
        dir.write("base.toml", Self.base)
        dir.write("gitleaks.toml", #"""
        title = "team config"
        [extend]
        path = "base.toml"
        disabledRules = ["base-dropped", "generic-api-key"]

        [[rules]]
        id = "team-token"
        regex = '''team_([a-z0-9]{10})'''
        keywords = ["team_"]
        """#)
        let list = keyshape(["rules", "list", "--no-builtin-rules", "--rules", "gitleaks.toml"], cwd: dir.path)
        XCTAssertEqual(list.status, 0, list.stderr)
        let ids = list.stdout.split(separator: "\n").dropLast().compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(ids, ["base-kept", "team-token"])
        XCTAssertTrue(list.stderr.contains("`[extend] disabledRules` names rule `generic-api-key`, which no loaded rule has"), list.stderr)
        XCTAssertFalse(list.stderr.contains("base-dropped"), list.stderr)
    }

    /// `useDefault = true` means what it means in gitleaks: the default pack (keyshape's
    /// builtin rules) plus the file's rules.
    func testUseDefaultAddsTheFilesRulesToTheBuiltinPack() {
        let dir = TempDir()
        dir.write("gitleaks.toml", "[extend]\nuseDefault = true\n\n" + Self.base)
        let builtin = keyshape(["rules", "list"]).stdout.split(separator: "\n").count
        let list = keyshape(["rules", "list", "--rules", "gitleaks.toml"], cwd: dir.path)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout.split(separator: "\n").count, builtin + 2)
        XCTAssertGreaterThan(builtin, 100)
    }

    func testAnExtendLoopIsAnError() {
        let dir = TempDir()
        dir.write("a.toml", "[extend]\npath = \"b.toml\"\n" + Self.base)
        dir.write("b.toml", "[extend]\npath = \"a.toml\"\n")
        let run = keyshape(["rules", "list", "--no-builtin-rules", "--rules", "a.toml"], cwd: dir.path)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("`[extend] path` goes deeper than"), run.stderr)
    }
}
