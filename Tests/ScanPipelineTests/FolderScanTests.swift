import Foundation
import XCTest
import ScanCore
@testable import ScanPipeline
import TestSupport

final class FolderScanTests: XCTestCase {
    func testFindsCanaryAtPathLineAndColumnRelativeToRoot() {
        let tree = TempDir()
        tree.write("Sources/App/APIKeys.swift", "import Foundation\n\nenum Keys {\n    static let key = \"\(TestRules.canary)\"\n}\n")
        tree.write("README.md", "nothing here\n")
        let result = runScan([tree.path])
        XCTAssertEqual(result.issues, [])
        XCTAssertEqual(result.findings.count, 1)
        let f = result.findings[0]
        XCTAssertEqual(f.rule, "canary")
        XCTAssertEqual(f.location.kind, .file)
        XCTAssertEqual(f.location.path, "Sources/App/APIKeys.swift")
        XCTAssertEqual(f.location.line, 4)
        XCTAssertEqual(f.location.column, 23)
        XCTAssertEqual(f.location.endLine, 4)
        XCTAssertEqual(f.location.endColumn, 23 + TestRules.canary.count)
        XCTAssertEqual(f.location.byteLength, TestRules.canary.utf8.count)
        XCTAssertEqual(f.location.byteOffset, "import Foundation\n\nenum Keys {\n    static let key = \"".utf8.count)
        XCTAssertEqual(result.stats.files, 2)
        XCTAssertEqual(f.fingerprint.count, 16)
        XCTAssertEqual(f.secretHash.count, 16)
    }

    func testColumnsCountUnicodeScalarsAndNonUTF8IsScanned() {
        let tree = TempDir()
        tree.write("u.txt", "é🔑 = \(TestRules.token)\n")
        var bytes = Data([0xFF, 0xFE, 0xC3, 0x28, 0x0A])  // invalid UTF-8, then a newline
        bytes.append(Data("x \(TestRules.token)\n".utf8))
        tree.write("latin.txt", bytes)
        let result = runScan([tree.path])
        XCTAssertEqual(result.issues, [])
        let byPath = Dictionary(uniqueKeysWithValues: result.findings.map { ($0.location.path!, $0.location) })
        XCTAssertEqual(byPath["u.txt"]?.line, 1)
        XCTAssertEqual(byPath["u.txt"]?.column, 6)
        XCTAssertEqual(byPath["u.txt"]?.byteOffset, 9)
        XCTAssertEqual(byPath["latin.txt"]?.line, 2)
        XCTAssertEqual(byPath["latin.txt"]?.column, 3)
    }

    func testSameSecretSameHashDifferentPlacesDifferentFingerprints() {
        let tree = TempDir()
        tree.write("a.txt", TestRules.token)
        tree.write("b.txt", "\n\n" + TestRules.token)
        let r = runScan([tree.path]).findings
        XCTAssertEqual(r.count, 2)
        XCTAssertEqual(r[0].secretHash, r[1].secretHash)
        XCTAssertNotEqual(r[0].fingerprint, r[1].fingerprint)
        // Moving the line does not change the fingerprint.
        tree.write("a.txt", "\n\n\n\n" + TestRules.token)
        XCTAssertEqual(runScan([tree.path]).findings.first { $0.location.path == "a.txt" }?.fingerprint, r[0].fingerprint)
    }

    func testPEMBlockReportsItsFirstLine() {
        let tree = TempDir()
        tree.write("k.pem", "// key\n-----BEGIN TEST PRIVATE KEY-----\nMIIBVgIBADANBgkqhkiG9w0BAQEFAASC\nAUAwggE8AgEAAkEAq7BFUpkGp3+XQSEi\n-----END TEST PRIVATE KEY-----\n")
        let f = runScan([tree.path]).findings
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.first?.location.line, 2)
        XCTAssertEqual(f.first?.location.column, 1)
        XCTAssertEqual(f.first?.location.endLine, 5)
    }

    func testInlineAllowAndEmptyFile() {
        let tree = TempDir()
        tree.write("a.swift", "let k = \"\(TestRules.token)\" // keyshape:allow\nlet j = \"\(TestRules.token)\" // gitleaks:allow\n")
        tree.write("empty.txt", "")
        let r = runScan([tree.path])
        XCTAssertEqual(r.findings, [])
        XCTAssertEqual(r.issues, [])
        XCTAssertEqual(r.stats.files, 2)
    }

    func testGitInternalsAreSkippedButDotfilesAreNot() {
        let tree = TempDir()
        tree.write(".git/objects/xx", TestRules.token)
        tree.write(".env", "TOKEN=\(TestRules.token)\n")
        XCTAssertEqual(runScan([tree.path]).findings.map { $0.location.path }, [".env"])
    }

    func testMissingPathIsAnIssue() {
        let tree = TempDir()
        let r = runScan([tree.path + "/nope"])
        XCTAssertEqual(r.issues.count, 1)
        XCTAssertTrue(r.issues[0].message.contains("no such file"), r.issues[0].message)
    }

    func testSymlinkLoopNeverHangs() throws {
        let tree = TempDir()
        tree.write("d/a.txt", TestRules.token)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/d/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/self", withDestinationPath: "self")
        // Not followed by default.
        XCTAssertEqual(runScan([tree.path]).findings.count, 1)
        // Followed: the loop is detected and noted, the file still found once per real path.
        let followed = Scanner(ruleSet: TestRules.set(), options: { var o = ScanOptions(jobs: 1); o.followSymlinks = true; return o }()).scan(paths: [tree.path])
        XCTAssertEqual(followed.result.findings.map { $0.location.path }, ["d/a.txt"])
        XCTAssertTrue(followed.notes.contains { $0.message.contains("loop") }, "\(followed.notes)")
    }

    func testOversizedFileIsReportedNotScanned() {
        let tree = TempDir()
        tree.write("big.txt", String(repeating: "x", count: 2000) + TestRules.token)
        let r = runScan([tree.path]) { $0.maxFileSize = 1000 }
        XCTAssertEqual(r.findings, [])
        XCTAssertEqual(r.issues.map(\.path), ["big.txt"])
        XCTAssertTrue(r.issues[0].message.contains("max-file-size"))
    }

    func testCatastrophicRuleIsAnIssueAndTheScanCompletes() {
        let tree = TempDir()
        tree.write("a.txt", TestRules.token + "\n" + String(repeating: "a", count: 20_000) + "b\n")
        let rules = TestRules.set(extra: "[[rules]]\nid = 'evil'\nregex = '''(a+)+$'''\nkeywords = ['aaaa']\n")
        let started = Date()
        let r = runScan([tree.path], rules: rules)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(r.findings.map(\.rule), ["token"])
        XCTAssertEqual(r.issues.count, 1)
        XCTAssertTrue(r.issues[0].message.contains("`evil`"), r.issues[0].message)
    }

    /// A rule with a `path` runs only on the files it names: the same catastrophic rule,
    /// limited to `.yaml`, gives up on the YAML file and is never run on the text file
    /// (with the path left to be settled after matching, it gave up on both).
    func testARuleLimitedToPathsIsNotRunOnOtherFiles() {
        let tree = TempDir()
        let body = TestRules.token + "\n" + String(repeating: "a", count: 20_000) + "b\n"
        tree.write("a.txt", body)
        tree.write("b.yaml", body)
        let rules = TestRules.set(extra: "[[rules]]\nid = 'evil'\nregex = '''(a+)+$'''\nkeywords = ['aaaa']\npath = '''\\.yaml$'''\n")
        let r = runScan([tree.path], rules: rules)
        XCTAssertEqual(r.findings.map(\.rule), ["token", "token"])
        XCTAssertEqual(r.issues.map(\.path), ["b.yaml"])
    }

    func testBaselineDropsKnownFingerprints() {
        let tree = TempDir()
        tree.write("a.txt", TestRules.token + "\n" + TestRules.canary)
        let all = runScan([tree.path]).findings
        XCTAssertEqual(all.count, 2)
        let rest = runScan([tree.path]) { $0.baseline = [all[0].fingerprint] }.findings
        XCTAssertEqual(rest, [all[1]])
    }

    func testResultsDoNotDependOnJobs() {
        let tree = TempDir()
        for i in 0..<60 { tree.write("d\(i % 7)/f\(i).txt", String(repeating: "line\n", count: i) + (i % 3 == 0 ? TestRules.token : "none")) }
        let one = runScan([tree.path]) { $0.jobs = 1 }
        let four = runScan([tree.path]) { $0.jobs = 4 }
        XCTAssertEqual(one.findings.count, 20)
        XCTAssertEqual(one.findings, four.findings)
    }
}
