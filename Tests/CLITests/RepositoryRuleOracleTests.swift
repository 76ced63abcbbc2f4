import Foundation
import XCTest
import TestSupport

/// A scanned tree's own rules and allowlists cannot read a value out through keyshape: rules
/// that each test one bit of one character of a token (`ghp_[A-Za-z0-9]{P}[chars whose index
/// has bit B]`), a lookahead into it, an allowlist regex on it. The rules still fire on text no
/// trusted rule matched, so a repository's own token format is still found.
final class RepositoryRuleOracleTests: XCTestCase {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A random-looking classic PAT of the documented shape (the builtin github-pat finds it).
    func token(seed: UInt64) -> String {
        var g = SeededGenerator(seed: seed)
        return "ghp_" + String((0..<36).map { _ in Self.alphabet[Int(g.next() % UInt64(Self.alphabet.count))] })
    }

    /// Rules spelling out the first `positions` characters, bit by bit, plus a lookahead probe,
    /// a repository allowlist testing the value, and one honest rule of the tree's own.
    func bisectingConfig(positions: Int) -> String {
        var text = ""
        for p in 0..<positions {
            for b in 0..<6 {
                let chars = String(Self.alphabet.enumerated().filter { ($0.offset >> b) & 1 == 1 }.map(\.element))
                text += "[[rules]]\nid = \"bit-\(p)-\(b)\"\nregex = '''ghp_[A-Za-z0-9]{\(p)}[\(chars)]'''\nkeywords = [\"ghp_\"]\n\n"
            }
        }
        text += "[[rules]]\nid = \"peek\"\nregex = '''token = (?=ghp_[A-M])'''\nkeywords = [\"token\"]\n\n"
        text += "[[rules]]\nid = \"acme-internal\"\nregex = '''acme-int-([0-9a-f]{32})'''\nsecretGroup = 1\nkeywords = [\"acme-int-\"]\n\n"
        text += "[[allowlists]]\nregexes = ['''ghp_[A-M]''']\n"
        return text
    }

    func ruleIds(_ r: Run) -> [String] {
        let object = r.report
        XCTAssertNotNil(object, "no JSON report: \(r.stderr)")
        return ((object?["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }.sorted()
    }

    func testBisectingRulesInTheTreeSeeNoValue() {
        let tmp = TempDir()
        let a = token(seed: 11), b = token(seed: 12)
        tmp.write("one/creds.txt", "token = \(a)\ninternal = acme-int-9f3a7c1e5b2d8046af91c3e7d5b20f68\n")
        tmp.write("two/creds.txt", "token = \(b)\ninternal = acme-int-9f3a7c1e5b2d8046af91c3e7d5b20f68\n")
        tmp.write("one/.gitleaks.toml", bisectingConfig(positions: 4))
        tmp.write("two/.gitleaks.toml", bisectingConfig(positions: 4))
        let one = keyshape(["scan", tmp.path + "/one", "--format", "json", "--no-progress"])
        let two = keyshape(["scan", tmp.path + "/two", "--format", "json", "--no-progress"])
        for (r, secret) in [(one, a), (two, b)] {
            XCTAssertEqual(r.status, 1, r.stderr)
            assertNoFragment(of: secret, in: r.stdout + r.stderr, "output")
            // The builtin rule reports the token (no repository allowlist can hide it by its
            // value), the tree's own rule its own format, and no probe fires.
            XCTAssertEqual(ruleIds(r), ["acme-internal", "github-pat"], r.stdout)
            XCTAssertTrue(r.stderr.contains("apply to that config's own rules only"), r.stderr)
        }
    }

    func testBisectingRulesSeeNoDeletedKeyInHistory() {
        let repo = GitFixture()
        let a = token(seed: 21)
        repo.write("deploy.env", "token = \(a)\n")
        repo.commit("add deploy settings")
        repo.remove("deploy.env")
        repo.write(".gitleaks.toml", bisectingConfig(positions: 3))
        repo.commit("tidy")
        for command in ["history", "audit"] {
            let r = keyshape([command, repo.path, "--format", "json", "--no-progress"])
            XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)")
            assertNoFragment(of: a, in: r.stdout + r.stderr, command)
            XCTAssertFalse(ruleIds(r).contains { $0.hasPrefix("bit-") || $0 == "peek" }, "\(command): \(r.stdout)")
            XCTAssertTrue(ruleIds(r).contains("github-pat"), "\(command): \(r.stdout)")
        }
    }

    /// The token base64-encoded: a trusted rule finds it in the decoded text, so the tree's
    /// rules must not read its encoded form either.
    func testBisectingRulesSeeNoEncodedValue() {
        let tmp = TempDir()
        let a = token(seed: 31)
        let encoded = Data(a.utf8).base64EncodedString()
        var config = ""
        for p in 0..<4 {
            config += "[[rules]]\nid = \"b64-\(p)\"\nregex = '''Z2hwX[A-Za-z0-9+/]{\(p)}[A-Ma-m]'''\nkeywords = [\"Z2hwX\"]\n\n"
        }
        tmp.write("tree/blob.json", "{\"data\": \"\(encoded)\"}\n")
        tmp.write("tree/.gitleaks.toml", config)
        let r = keyshape(["scan", tmp.path + "/tree", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        assertNoFragment(of: a, in: r.stdout + r.stderr, "output")
        XCTAssertFalse(ruleIds(r).contains { $0.hasPrefix("b64-") }, r.stdout)
    }
}
