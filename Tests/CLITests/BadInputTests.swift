import Foundation
import XCTest
import TestSupport

/// Every bad input gives a clear message and the documented exit status.
final class BadInputTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"

    func testExitStatuses() {
        let tmp = TempDir()
        tmp.write("clean/a.txt", "nothing to see\n")
        tmp.write("dirty/a.txt", "x = \(canary)\n")
        XCTAssertEqual(keyshape(["scan", tmp.path + "/clean"]).status, 0)
        XCTAssertEqual(keyshape(["scan", tmp.path + "/dirty"]).status, 1)
        XCTAssertEqual(keyshape(["scan", tmp.path + "/dirty", "--exit-code", "7"]).status, 7)
        let missing = keyshape(["scan", tmp.path + "/dirty", tmp.path + "/nope", "--format", "json"])
        XCTAssertEqual(missing.status, 2, "a missing path means the scan could not finish")
        let object = missing.report!
        XCTAssertEqual((object["findings"] as! [Any]).count, 1, "what was found is still reported")
        let errors = object["errors"] as! [[String: String]]
        XCTAssertEqual(errors.first?["message"], "no such file or directory")
        XCTAssertTrue(errors.first?["path"]?.hasSuffix("nope") ?? false)
    }

    func testUsageErrors() {
        for args in [["scan", "--format", "xml"], ["scan", "--bogus"], ["frobnicate"], ["scan", "--jobs", "0"], ["scan", "--output"],
                     ["rules", "zap"], ["scan", "--max-file-size", "lots"]] {
            let r = keyshape(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("keyshape: error:"), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--help"), "\(args)")
        }
        let help = keyshape(["scan", "--help"])
        XCTAssertEqual(help.status, 0)
        for flag in ["--format", "--output", "--rules", "--no-builtin-rules", "--config", "--baseline", "--write-baseline",
                     "--exit-code", "--jobs", "--progress", "--no-progress", "--max-file-size"] {
            XCTAssertTrue(help.stdout.contains(flag), "help lists \(flag)")
        }
    }

    func testMalformedTOMLNamesFileLineAndColumn() {
        let tmp = TempDir()
        tmp.write("bad.toml", "[[rules]]\nid = \"x\"\nregex = '''abc\n")
        tmp.write("src/a.txt", "hello\n")
        let r = keyshape(["scan", tmp.path + "/src", "--rules", tmp.path + "/bad.toml"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("bad.toml:3:"), r.stderr)
        tmp.write("bad2.toml", "[[rules]]\nid = \"x\"\nregex = \"a\"\nkeywords = [\"a\",, ]\n")
        let r2 = keyshape(["scan", tmp.path + "/src", "--rules", tmp.path + "/bad2.toml"])
        XCTAssertEqual(r2.status, 2)
        XCTAssertTrue(r2.stderr.range(of: #"bad2\.toml:4:\d+: "#, options: .regularExpression) != nil, r2.stderr)
    }

    func testInvalidRegexNamesRuleAndOffset() {
        let tmp = TempDir()
        tmp.write("r.toml", "[[rules]]\nid = \"broken-one\"\nregex = '''(?<name>x'''\nkeywords = [\"x\"]\n")
        let r = keyshape(["scan", tmp.path, "--rules", tmp.path + "/r.toml"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("r.toml:3:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("broken-one"), r.stderr)
        XCTAssertTrue(r.stderr.contains("offset"), r.stderr)
    }

    func testUnknownKeysWarnButLoad() {
        let tmp = TempDir()
        tmp.write("r.toml", "[[rules]]\nid = \"demo\"\nregex = '''demo_[0-9]{6}'''\nkeywords = [\"demo_\"]\nsevrity = \"high\"\n")
        tmp.write("src/a.txt", "demo_123456\n")
        let r = keyshape(["scan", tmp.path + "/src", "--no-builtin-rules", "--rules", tmp.path + "/r.toml"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("r.toml:5:1: warning: rule `demo`: unknown key (ignored)"), r.stderr)
    }

    func testCatastrophicRuleGivesAnErrorEntryAndFinishes() {
        let tmp = TempDir()
        tmp.write("r.toml", "[[rules]]\nid = \"evil\"\nregex = '''(a+)+$'''\nkeywords = [\"aaaa\"]\n")
        tmp.write("src/long.txt", String(repeating: "a", count: 50_000) + "b\n" + canary + "\n")
        let started = Date()
        let r = keyshape(["scan", tmp.path + "/src", "--rules", tmp.path + "/r.toml", "--format", "json"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
        XCTAssertEqual(r.status, 2)
        let object = r.report!
        XCTAssertEqual((object["findings"] as! [[String: Any]]).map { $0["rule"] as! String }, ["keyshape-canary"])
        let errors = object["errors"] as! [[String: String]]
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors[0]["path"], "long.txt")
        XCTAssertTrue(errors[0]["message"]!.contains("`evil`"))
    }

    func testUnreadableFileIsAnErrorAndOthersAreStillScanned() throws {
        let tmp = TempDir()
        tmp.write("src/ok.txt", canary + "\n")
        tmp.write("src/locked.txt", canary + "\n")
        XCTAssertEqual(chmod(tmp.path + "/src/locked.txt", 0), 0)
        var args = ["scan", tmp.path + "/src", "--format", "json"]
        var executable = Binary.url.path
        if getuid() == 0 {
            // root reads everything: drop to an unprivileged user so the permission bits bite.
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else { throw XCTSkip("needs setpriv to drop root") }
            XCTAssertEqual(chmod(tmp.path, 0o755), 0)
            XCTAssertEqual(chmod(tmp.path + "/src", 0o755), 0)
            XCTAssertEqual(chmod(tmp.path + "/src/ok.txt", 0o644), 0)
            // The binary must be reachable by that user: copy it somewhere world-readable.
            let copy = tmp.path + "/keyshape"
            try FileManager.default.copyItem(atPath: executable, toPath: copy)
            args = ["--reuid=65534", "--regid=65534", "--clear-groups", copy] + args
            executable = setpriv
        }
        let r = runProcess(executable, args)
        XCTAssertEqual(r.status, 2, r.stderr)
        let object = try XCTUnwrap(r.report)
        XCTAssertEqual((object["findings"] as! [[String: Any]]).count, 1)
        XCTAssertEqual(object["errors"] as! [[String: String]], [["path": "locked.txt", "message": "permission denied"]])
    }

    func testHugeSparseFileIsScannedInBoundedMemory() throws {
        let tmp = TempDir()
        let path = tmp.path + "/disk.img"
        FileManager.default.createFile(atPath: path, contents: nil)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let size: UInt64 = 2 << 30
        try h.seek(toOffset: size - 10_000)
        try h.write(contentsOf: Data("\u{0}\u{0}token=\(canary)\u{0}".utf8))
        try h.truncate(atOffset: size)
        try h.close()
        let (r, peakKiB) = runMeasuringPeakResident(Binary.url.path, ["scan", tmp.path, "--max-file-size", "3G", "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let object = try XCTUnwrap(r.report)
        let loc = (object["findings"] as! [[String: Any]])[0]["location"] as! [String: Any]
        XCTAssertEqual(loc["kind"] as? String, "binary")
        XCTAssertEqual(loc["fileOffset"] as? Int, Int(size) - 10_000 + 8)
        XCTAssertGreaterThan(peakKiB, 0, "peak resident size read")
        XCTAssertLessThan(peakKiB, 300 * 1024, "peak resident size of this scan, in KiB")
        // No limit by default: streamed too. Under a limit the user sets, reported, not
        // silently skipped.
        XCTAssertEqual(keyshape(["scan", tmp.path, "--no-progress"]).status, 1)
        let skipped = keyshape(["scan", tmp.path, "--max-file-size", "1G"])
        XCTAssertEqual(skipped.status, 2)
        XCTAssertTrue(skipped.stderr.contains("disk.img: file is"), skipped.stderr)
    }

    func testEmptyFileNonUTF8AndOddNames() throws {
        let tmp = TempDir()
        tmp.write("empty", "")
        tmp.write("with space/and\nnewline.txt", canary + "\n")
        let odd = tmp.path + "/\u{FF}"  // U+00FF, valid UTF-8 on disk
        try Data([0xFF, 0xFE, 0x0A] + Array(canary.utf8)).write(to: URL(fileURLWithPath: odd))
        let r = keyshape(["scan", tmp.path, "--format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let object = try XCTUnwrap(r.report)
        let paths = (object["findings"] as! [[String: Any]]).map { ($0["location"] as! [String: Any])["path"] as! String }
        XCTAssertEqual(Set(paths), ["with space/and\nnewline.txt", "\u{FF}"])
        XCTAssertEqual((object["stats"] as! [String: Any])["files"] as? Int, 3)
    }

    func testConfigFileAtRootAllowlistsPaths() {
        let tmp = TempDir()
        tmp.write("fixtures/a.txt", canary + "\n")
        tmp.write("src/a.txt", canary + "\n")
        tmp.write(".keyshape.toml", "[[allowlists]]\npaths = ['''^fixtures/''']\n[scan]\nmaxFileSize = \"1MiB\"\n")
        let r = keyshape(["scan", tmp.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.hasPrefix("src/a.txt:1:1: keyshape-canary"), r.stdout)
        XCTAssertFalse(r.stdout.contains("fixtures/"))
        tmp.write("broken.toml", "[scan\n")
        let bad = keyshape(["scan", tmp.path, "--config", tmp.path + "/broken.toml"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("broken.toml:1:"), bad.stderr)
    }
}
