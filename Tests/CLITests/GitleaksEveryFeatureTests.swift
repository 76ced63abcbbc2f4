import Foundation
import XCTest
import TestSupport

/// One gitleaks config written here that uses every feature keyshape honours, read the way
/// gitleaks reads it (GITLEAKS_CONFIG), over a tree with a `.gitleaksignore`. Always runs.
final class GitleaksEveryFeatureTests: XCTestCase {
    func testEveryFeatureAtOnce() throws {
        let dir = TempDir()
        dir.write("base.toml", #"""
        [[rules]]
        id = "base-unused"
        regex = '''unused_([a-z]{8})'''
        keywords = ["unused_"]
        """#)
        dir.write("gitleaks.toml", #"""
        title = "every feature"
        [extend]
        path = "base.toml"
        disabledRules = ["base-unused", "no-such-rule"]

        [[rules]]
        id = "keystore-file"
        description = "A key store"
        path = '''(?i)\.p(?:12|fx)$'''

        [[rules]]
        id = "svc-user"
        regex = '''svcuser_([a-z]{8})'''
        keywords = ["svcuser_"]
        skipReport = true

        [[rules]]
        id = "svc-password"
        description = "Service password"
        # \x{2028} is RE2 syntax PCRE2 refuses without UTF mode: translated.
        regex = '''svcpass_([A-Za-z0-9]{12})(?:\x{2028}|\b)'''
        keywords = ["svcpass_"]
        [[rules.required]]
        id = "svc-user"
        withinLines = 2
        """#)
        let user = "svcuser_" + "qzkxwvbn", pass = "svcpass_" + "R7t2Kp9mX4wQ"
        dir.write("tree/near.env", "\(user)\n\(pass)\n")
        dir.write("tree/far.env", "\(user)\n\n\n\n\(pass)\n")
        dir.write("tree/accepted.env", "\(user)\n\(pass)\n")
        dir.write("tree/.gitleaksignore", "accepted.env:svc-password:2\n")
        dir.write("tree/keys/client.p12", "\u{30}\u{82}")
        var env = ProcessInfo.processInfo.environment
        env["GITLEAKS_CONFIG"] = "gitleaks.toml"
        env["GITLEAKS_CONFIG_TOML"] = nil
        let run = keyshape(["scan", "tree", "--no-builtin-rules", "--format", "json"], cwd: dir.path, env: env)
        XCTAssertEqual(run.status, 1, run.stderr)
        let report = try XCTUnwrap(run.report)
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        let places = findings.map { f -> String in
            let l = f["location"] as? [String: Any] ?? [:]
            return "\(l["path"] as? String ?? ""):\(l["line"] as? Int ?? 0) \(f["rule"] as? String ?? "")"
        }.sorted()
        XCTAssertEqual(places, ["keys/client.p12:0 keystore-file", "near.env:2 svc-password"],
                       "far.env's user is 3 lines away; accepted.env is in .gitleaksignore; svc-user never reports")
        let stats = try XCTUnwrap(report["stats"] as? [String: Any])
        XCTAssertEqual((stats["suppressed"] as? [String: Int])?["baseline"], 1)
        XCTAssertTrue(run.stderr.contains("names rule `no-such-rule`, which no loaded rule has"), run.stderr)
        XCTAssertTrue(run.stderr.contains("; config: gitleaks.toml"), run.stderr)
        XCTAssertTrue(run.stderr.contains(".gitleaksignore"), run.stderr)
        for secret in [user, pass] { assertNoFragment(of: secret, in: run.stdout + run.stderr, "output") }
    }
}
