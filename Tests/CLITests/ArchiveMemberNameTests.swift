import Foundation
import XCTest
import TestSupport

/// Zip member names flagged as UTF-8 (general-purpose bit 11, which Python's zipfile,
/// Info-ZIP and jar set for any non-ASCII name) and pax `path` records: libarchive converts
/// them to the C locale, fails on every non-ASCII byte, and the name came out empty, so each
/// such member printed as `App.zip!`, two of them shared one fingerprint, and rules bound to
/// a file name (`.pgpass`) never fired.
final class ArchiveMemberNameTests: XCTestCase {
    // Built in two pieces: a `let password = "…"` literal is itself what the project's
    // self-audit gate reports.
    let password = ["Tr0ub4dor", "-"].joined() + String((0..<14).map { _ in Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789").randomElement()! })
    let token: String = "ghp_" + String((0..<36).map { _ in Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789").randomElement()! })

    func findings(_ dir: TempDir, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = keyshape(["scan", dir.path, "--no-config", "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr, file: file, line: line)
        for secret in [password, token] {
            assertNoFragment(of: secret, in: r.stdout, "stdout", file: file, line: line)
            assertNoFragment(of: secret, in: r.stderr, "stderr", file: file, line: line)
        }
        let object = try XCTUnwrap(r.report, r.stderr, file: file, line: line)
        XCTAssertEqual((object["errors"] as? [Any])?.count, 0, r.stdout, file: file, line: line)
        return object["findings"] as? [[String: Any]] ?? []
    }

    func make(_ dir: TempDir, _ script: String) {
        let r = runProcess("/usr/bin/python3", ["-c", script, password, token], cwd: dir.path)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testUTF8NamedZipMembersKeepTheirNames() throws {
        let dir = TempDir()
        make(dir, """
            import sys, zipfile
            with zipfile.ZipFile("names.zip", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("caf\\u00e9/.pgpass", "db.internal:5432:app:admin:" + sys.argv[1] + "\\n")
                z.writestr("\\u00fcn\\u00ef/a.env", "GITHUB_TOKEN=" + sys.argv[2] + "\\n")
                z.writestr("\\u00fcn\\u00ef/b.env", "GITHUB_TOKEN=" + sys.argv[2] + "\\n")
            """)
        let all = try findings(dir)
        let members = all.map { (($0["location"] as? [String: Any])?["archive"] as? [String] ?? []).joined(separator: "!") }
        XCTAssertTrue(members.contains("café/.pgpass"), "\(members)")
        XCTAssertTrue(members.contains("ünï/a.env"), "\(members)")
        XCTAssertTrue(members.contains("ünï/b.env"), "\(members)")
        XCTAssertFalse(members.contains(""), "\(members)")
        // The path-conditioned rule fires on the member's path.
        XCTAssertTrue(all.contains { $0["rule"] as? String == "pgpass-password" }, "\(all)")
        // One token in two members: two places, two fingerprints, one secret hash.
        let tokens = all.filter { $0["rule"] as? String == "github-pat" }
        XCTAssertEqual(tokens.count, 2, "\(all)")
        XCTAssertEqual(Set(tokens.compactMap { $0["fingerprint"] as? String }).count, 2, "\(tokens)")
        let text = keyshape(["scan", dir.path, "--no-config", "--no-progress"])
        XCTAssertTrue(text.stdout.contains("names.zip!café/.pgpass:1:"), text.stdout)
    }

    /// Python's tarfile writes a non-ASCII name as a pax `path` record (UTF-8): the same.
    func testUTF8PaxPathInATar() throws {
        let dir = TempDir()
        make(dir, """
            import io, sys, tarfile
            with tarfile.open("names.tar", "w", format=tarfile.PAX_FORMAT) as t:
                data = ("db.internal:5432:app:admin:" + sys.argv[1] + "\\n").encode()
                info = tarfile.TarInfo("caf\\u00e9/.pgpass"); info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            """)
        let all = try findings(dir)
        let location = try XCTUnwrap(all.first { $0["rule"] as? String == "pgpass-password" }?["location"] as? [String: Any], "\(all)")
        XCTAssertEqual(location["archive"] as? [String], ["café/.pgpass"])
    }
}
