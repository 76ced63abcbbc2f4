import Foundation
import XCTest
import TestSupport

/// Config and rules files, and trees, built to make keyshape hang or read without bound:
/// each is refused or walked in bounded time with an error entry or exit status saying so.
final class HostileInputFileTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "12345"

    /// A sparse file of `size` bytes: no disk blocks, and nothing is read to make it.
    func sparse(_ path: String, size: off_t) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, size), 0)
        close(fd)
    }

    func testHugeConfigAndRulesFilesAreRefusedAtOnce() {
        let tmp = TempDir()
        tmp.write("src/a.txt", "nothing\n")
        sparse(tmp.path + "/huge.toml", size: 2 << 30)
        for args in [["--config", tmp.path + "/huge.toml"], ["--rules", tmp.path + "/huge.toml"]] {
            let started = Date()
            let r = keyshape(["scan", tmp.path + "/src"] + args)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "\(args): refused from its size, not read")
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("huge.toml"), r.stderr)
            XCTAssertTrue(r.stderr.contains("16777216-byte limit"), "\(args): \(r.stderr)")
        }
        // The scanned root's own .keyshape.toml is read the same way.
        sparse(tmp.path + "/src/.keyshape.toml", size: 2 << 30)
        let r = keyshape(["scan", tmp.path + "/src"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("-byte limit"), r.stderr)
    }

    func testFIFOsAsConfigOrInARulesFolderAreNeverOpened() {
        let tmp = TempDir()
        tmp.write("src/a.txt", "nothing\n")
        tmp.write("rules/good.toml", "[[rules]]\nid = \"demo\"\nregex = '''demo_[0-9]{6}'''\nkeywords = [\"demo_\"]\n")
        XCTAssertEqual(mkfifo(tmp.path + "/rules/pipe.toml", 0o600), 0)
        XCTAssertEqual(mkfifo(tmp.path + "/config.toml", 0o600), 0)
        for args in [["--rules", tmp.path + "/rules"], ["--config", tmp.path + "/config.toml"]] {
            let r = runProcess(Binary.url.path, ["scan", tmp.path + "/src"] + args, timeout: 60)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("not a regular file"), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("permission denied"), r.stderr)
        }
        // A device is no config file either.
        let dev = keyshape(["scan", tmp.path + "/src", "--config", "/dev/zero"])
        XCTAssertEqual(dev.status, 2)
        XCTAssertTrue(dev.stderr.contains("not a regular file"), dev.stderr)
    }

    func testLinkDAGTurnedOnByTheRootsOwnConfigFinishesAndReportsTheKeyOnce() throws {
        let tmp = TempDir()
        tmp.write(".keyshape.toml", "[scan]\nfollowSymlinks = true\n")
        let depth = 40
        for i in 0...depth { try FileManager.default.createDirectory(atPath: tmp.path + "/chain/\(i)", withIntermediateDirectories: true) }
        for i in 0..<depth {
            for link in ["a", "b"] {
                try FileManager.default.createSymbolicLink(atPath: tmp.path + "/chain/\(i)/\(link)", withDestinationPath: "../\(i + 1)")
            }
        }
        tmp.write("chain/\(depth)/key.txt", "k = \(canary)\n")
        let started = Date()
        let r = runProcess(Binary.url.path, ["scan", tmp.path, "--format", "json"], timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "2^40 paths, walked once each real folder")
        XCTAssertEqual(r.status, 1, r.stderr)
        let object = try XCTUnwrap(r.report)
        let findings = object["findings"] as! [[String: Any]]
        XCTAssertEqual(findings.count, 1, "the one real file, once")
        let path = (findings.first?["location"] as? [String: Any])?["path"] as? String ?? ""
        XCTAssertTrue(path.hasPrefix("chain/") && path.hasSuffix("/key.txt"), path)
        assertNoFragment(of: canary, in: r.stdout + r.stderr, "output")
    }

    /// A long line of one keyword and a separator, over and over (`token= token= …`): every
    /// rule keyed on it runs over the whole line, so a pattern that backtracks from each blank
    /// is quadratic there. The builtin pack's command-prefix rule once took 80 s on 30,000 of
    /// these; each shape here must finish well inside the bound.
    func testALineOfOneKeywordRepeatedScansInBoundedTime() {
        let tmp = TempDir()
        let shapes = ["token= ", "API_KEY=v ", "password=\" ", "secret: ", "Environment=\"A=1\" ", "proxy_set_header X-Token "]
        for (k, shape) in shapes.enumerated() {
            tmp.write("src/\(k).txt", String(repeating: shape, count: 30_000) + "\n")
        }
        let started = Date()
        let r = runProcess(Binary.url.path, ["scan", tmp.path + "/src", "--format", "json", "--no-config"], timeout: 120)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "six 0.2 MB lines")
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// One 2 MB line holding 13,600 findings (a minified bundle or a one-line dump can hold
    /// many): each finding's line bounds, inline marker and column were found from the line's
    /// start again, 109 s in all; they are kept while findings stay on the line.
    func testManyFindingsOnOneLongLineAreReportedInBoundedTime() throws {
        let tmp = TempDir()
        tmp.write("src/dump.conf", String(repeating: "default_pass=", count: 150_000) + "\n")
        let started = Date()
        let r = runProcess(Binary.url.path, ["scan", tmp.path + "/src", "--format", "json", "--no-config"], timeout: 300)
        XCTAssertLessThan(Date().timeIntervalSince(started), 40, "one line of 1.95 MB")
        XCTAssertEqual(r.status, 1, r.stderr)
        let object = try XCTUnwrap(r.report)
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertGreaterThan(findings.count, 10_000)
        let columns = findings.compactMap { ($0["location"] as? [String: Any])?["column"] as? Int }
        XCTAssertEqual(columns, columns.sorted(), "columns ascend along the line")
        XCTAssertEqual(Set(columns).count, columns.count, "each finding at its own column")
    }
}
