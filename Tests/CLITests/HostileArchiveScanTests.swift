import Foundation
import XCTest
import TestSupport

/// `keyshape scan` on hostile archives built at run time by `Fixtures/archives/make-hostile.py`
/// (a 42.zip-style tree, a 10 GiB member, a quine, overlapping entries, hostile names, a
/// corrupt deflate stream, a truncated tar, an encrypted member): each one is an error entry
/// naming the archive and member, the run exits 2, the readable member beside it is still
/// scanned, nothing hangs (each run has a timeout) and peak memory stays bounded.
final class HostileArchiveScanTests: XCTestCase {
    /// A Stripe-shaped key made at run time.
    let key: String = TestKeys.stripe()

    /// Resident memory keyshape may reach on any of these (measured: 43 to 46 MiB for a debug
    /// build, whose own start-up is most of it).
    static let memoryBound = 160 << 20

    struct Scan {
        var run: Run
        var findings: [[String: Any]]
        var errors: [(path: String, message: String)]
        var peakResident: Int
        var seconds: TimeInterval
    }

    func make(_ names: [String], file: StaticString = #filePath, line: UInt = #line) -> TempDir {
        let dir = TempDir()
        let made = runProcess("/usr/bin/env", ["python3", Repo.path("Fixtures/archives/make-hostile.py"), dir.path, key] + names, timeout: 120)
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
        return dir
    }

    /// Runs `keyshape scan PATH --format json` under a small Python parent that reports the
    /// child's peak resident size (getrusage of its only child), with a timeout.
    func scan(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Scan {
        let started = Date()
        let (r, peak) = runMeasuringPeakResident(Binary.url.path, ["scan", path, "--no-config", "--format", "json", "--no-progress"],
                                                 timeout: 180, file: file, line: line)
        let seconds = Date().timeIntervalSince(started)
        for text in [r.stdout, r.stderr] { assertNoFragment(of: key, in: text, "output", file: file, line: line) }
        XCTAssertFalse(r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != " " }, "raw control characters", file: file, line: line)
        XCTAssertGreaterThan(peak, 0, "peak resident size read", file: file, line: line)
        let object = try XCTUnwrap(r.report, r.stderr, file: file, line: line)
        let errors = (object["errors"] as? [[String: Any]] ?? []).map { ($0["path"] as? String ?? "", $0["message"] as? String ?? "") }
        return Scan(run: r, findings: object["findings"] as? [[String: Any]] ?? [], errors: errors, peakResident: peak * 1024, seconds: seconds)
    }

    func places(_ scan: Scan) -> [String] {
        scan.findings.compactMap { $0["location"] as? [String: Any] }.map {
            "\($0["path"] as? String ?? "")!\(($0["archive"] as? [String] ?? []).joined(separator: "!")):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0)"
        }
    }

    // MARK: bombs

    /// 42.zip-style: five levels of 16 (1 TiB nominal). Every level within the depth limit is
    /// opened; the fifth is not, and past 100 problems the whole tree stops with one error
    /// saying so, instead of an error for each of its 65,536 innermost archives.
    func testNestedBombStopsAfterTheProblemLimit() throws {
        let dir = make(["bomb42.zip"])
        let s = try scan(dir.path + "/bomb42.zip")
        XCTAssertEqual(s.run.status, 2, s.run.stderr)
        XCTAssertLessThanOrEqual(s.errors.count, 101, "\(s.errors.count) errors, first \(s.errors.prefix(2))")
        XCTAssertTrue(s.errors.contains { $0.message.contains("too many problems") }, "\(s.errors.suffix(2))")
        XCTAssertTrue(s.errors.allSatisfy { $0.path.hasPrefix(dir.path + "/bomb42.zip") }, "\(s.errors.prefix(2))")
        XCTAssertTrue(s.errors.contains { $0.path.hasPrefix(dir.path + "/bomb42.zip!0.zip!0.zip!0.zip!") && $0.message.contains("depth limit") },
                      "\(s.errors.prefix(2))")
        XCTAssertLessThan(s.peakResident, Self.memoryBound)
        XCTAssertLessThan(s.seconds, 120)
    }

    /// One member of 10 GiB of zeros (zip64; and a tar.gz): stopped by the ratio limit within
    /// its first MiBs, memory flat; in the zip the member after it is still scanned.
    func testTenGibibyteMemberStopsEarlyWithFlatMemory() throws {
        let dir = make(["zeros10g.zip", "zeros10g.tgz"])
        let zip = try scan(dir.path + "/zeros10g.zip")
        XCTAssertEqual(zip.run.status, 2, zip.run.stderr)
        XCTAssertEqual(zip.errors.map(\.path), [dir.path + "/zeros10g.zip!zeros.bin"])
        XCTAssertTrue(zip.errors.first?.message.contains("ratio limit") == true, "\(zip.errors)")
        XCTAssertEqual(places(zip), [dir.path + "/zeros10g.zip!config/app.env:3:12"])
        XCTAssertLessThan(zip.peakResident, Self.memoryBound)
        XCTAssertLessThan(zip.seconds, 60)

        let tgz = try scan(dir.path + "/zeros10g.tgz")
        XCTAssertEqual(tgz.run.status, 2, tgz.run.stderr)
        XCTAssertTrue(tgz.errors.contains { $0.path == dir.path + "/zeros10g.tgz!zeros.bin" && $0.message.contains("ratio limit") }, "\(tgz.errors)")
        XCTAssertLessThan(tgz.peakResident, Self.memoryBound)
        XCTAssertLessThan(tgz.seconds, 60)
    }

    /// A zip that contains itself byte for byte: each level is opened until the depth limit,
    /// which is one error naming the chain.
    func testQuineEndsAtTheDepthLimit() throws {
        let dir = make(["quine.zip"])
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: dir.path + "/quine.zip"))
        // It is a quine: its one member, inflated by another reader, is the file itself.
        let check = runProcess("/usr/bin/env", ["python3", "-c", "import sys, zipfile; d = open(sys.argv[1], 'rb').read(); z = zipfile.ZipFile(sys.argv[1]); sys.exit(0 if z.read(z.namelist()[0]) == d else 1)", dir.path + "/quine.zip"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertLessThan(bytes.count, 4096)
        let s = try scan(dir.path + "/quine.zip")
        XCTAssertEqual(s.run.status, 2, s.run.stderr)
        XCTAssertEqual(s.errors.map(\.path), [dir.path + "/quine.zip" + String(repeating: "!self/r.zip", count: 4)])
        XCTAssertTrue(s.errors.first?.message.contains("depth limit") == true, "\(s.errors)")
        XCTAssertLessThan(s.seconds, 60)
    }

    // MARK: structure

    /// Two central-directory entries at one local header: the second is an error naming it
    /// (libarchive alone would never hand it out: a silent skip), the first is scanned.
    func testOverlappingEntriesAreAnError() throws {
        let dir = make(["overlap.zip"])
        let s = try scan(dir.path + "/overlap.zip")
        XCTAssertEqual(s.run.status, 2, s.run.stderr)
        XCTAssertEqual(places(s), [dir.path + "/overlap.zip!first/app.env:3:12"])
        XCTAssertEqual(s.errors.map(\.path), [dir.path + "/overlap.zip!again/app.env"])
        XCTAssertTrue(s.errors.first?.message.contains("overlaps") == true, "\(s.errors)")
    }

    /// `../`, absolute and control-character member names: read as data, printed escaped,
    /// nothing created anywhere.
    func testHostileNamesAreEscapedAndNothingIsWritten() throws {
        let dir = make(["names.zip"])
        let pid = String(runProcess("/bin/sh", ["-c", "python3 -c 'import zipfile, sys; print([n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.startswith(\"..\")][0])' \(dir.path)/names.zip"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("../../escape-".count).dropLast(".txt".count))
        XCTAssertFalse(pid.isEmpty)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        let s = try scan(dir.path + "/names.zip")
        XCTAssertEqual(s.run.status, 1, s.run.stderr)
        XCTAssertEqual(places(s), [dir.path + "/names.zip!evil\u{1b}[2J\rname\n.env:3:12"], "JSON carries the name as data")
        let text = keyshape(["scan", dir.path + "/names.zip", "--no-config", "--no-progress"])
        XCTAssertTrue(text.stdout.hasPrefix(dir.path + "/names.zip!evil\\x1b[2J\\rname\\n.env:3:12: stripe-live-secret-key"), text.stdout)
        XCTAssertFalse(text.stdout.contains("\u{1b}") || text.stdout.contains("\r"), text.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), before)
        let parent = URL(fileURLWithPath: dir.path).deletingLastPathComponent()
        for path in [parent.appendingPathComponent("escape-\(pid).txt").path, parent.deletingLastPathComponent().appendingPathComponent("escape-\(pid).txt").path,
                     "/abs-\(pid).txt", FileManager.default.currentDirectoryPath + "/../../escape-\(pid).txt"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
    }

    // MARK: damage

    /// A corrupt deflate stream and a truncated tar: what no reader can recover is no error
    /// once the readable members and the archive's raw bytes were read (exit 1, the key in
    /// the readable member found). An encrypted member is still an error at its member: a
    /// reader with the password recovers it.
    func testDamagedMembersAreErrorsAndTheRestIsScanned() throws {
        let dir = make(["corrupt.zip", "truncated.tar", "encrypted.zip"])
        let cases = [("corrupt.zip", nil), ("truncated.tar", nil), ("encrypted.zip", ("locked.txt", "encrypted"))]
        for (archive, error) in cases {
            let s = try scan(dir.path + "/" + archive)
            XCTAssertEqual(s.run.status, error == nil ? 1 : 2, "\(archive): \(s.run.stderr)")
            if let (member, word) = error {
                XCTAssertEqual(s.errors.map(\.path), [dir.path + "/\(archive)!\(member)"], archive)
                XCTAssertTrue(s.errors.first?.message.contains(word) == true, "\(archive): \(s.errors)")
            } else {
                XCTAssertEqual(s.errors.map(\.path), [], archive)
            }
            XCTAssertEqual(places(s), [dir.path + "/\(archive)!config/app.env:3:12"], archive)
            XCTAssertFalse(s.run.stdout.contains("not-a-real-password"))
        }
    }
}
