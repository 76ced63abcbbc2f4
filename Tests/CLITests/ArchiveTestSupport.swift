import Foundation
import XCTest

/// One `staged` or `history` run of `ArchiveScanTests`, its JSON report parsed.
struct ArchiveGitRun {
    var command: String
    var run: Run
    var findings: [[String: Any]]
    var errors: [[String: Any]]
}

/// Each finding's place as `path!member!member:line:column:fileOffset` (0 and -1 where the
/// location has none), sorted: what `scan` of a folder and `staged` or `history` of the same
/// files must agree on.
func archivePlaces(_ findings: [[String: Any]]) -> [String] {
    findings.compactMap { $0["location"] as? [String: Any] }.map {
        "\($0["path"] as? String ?? "")!\(($0["archive"] as? [String] ?? []).joined(separator: "!")):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0):\($0["fileOffset"] as? Int ?? -1)"
    }.sorted()
}

extension ArchiveScanTests {
    /// Runs `keyshape COMMAND REPO --format json` and checks what every git run of these
    /// tests must hold: the exit status; no fragment of the key, nor of any of `secrets`, on
    /// stdout or stderr; error entries exactly when it exits 2 (fail closed); and, given the
    /// folder scan of the same files, the same places. The report, for the test's own checks.
    @discardableResult
    func gitRun(_ command: String, _ repo: GitFixture, status: Int32, secrets: [String] = [], samePlacesAs scan: Run? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> ArchiveGitRun {
        let r = keyshape([command, repo.path, "--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, status, "\(command): \(r.stderr)", file: file, line: line)
        assertNoKey(r, file: file, line: line)
        for secret in secrets {
            assertNoFragment(of: secret, in: r.stdout, "stdout of \(command)", file: file, line: line)
            assertNoFragment(of: secret, in: r.stderr, "stderr of \(command)", file: file, line: line)
        }
        let (findings, errors) = try json(r, file: file, line: line)
        if status == 2 {
            XCTAssertFalse(errors.isEmpty, "\(command) exits 2 with no error entry: \(r.stdout)", file: file, line: line)
        } else {
            XCTAssertEqual(errors.count, 0, "\(command): \(r.stdout)", file: file, line: line)
        }
        if let scan {
            XCTAssertEqual(archivePlaces(findings), archivePlaces(try json(scan, file: file, line: line).findings),
                           "\(command) against scan: \(r.stdout)", file: file, line: line)
        }
        return ArchiveGitRun(command: command, run: r, findings: findings, errors: errors)
    }

    /// What is staged in `repo` through `gitRun("staged", ...)`, then the same committed
    /// through `gitRun("history", ...)`, each run then handed to `check`.
    func stagedThenHistory(_ repo: GitFixture, status: Int32, secrets: [String] = [], samePlacesAs scan: Run? = nil,
                           file: StaticString = #filePath, line: UInt = #line,
                           _ check: (ArchiveGitRun) throws -> Void = { _ in }) throws {
        for command in ["staged", "history"] {
            if command == "history" { repo.commit("release") }
            try check(try gitRun(command, repo, status: status, secrets: secrets, samePlacesAs: scan, file: file, line: line))
        }
    }
}
