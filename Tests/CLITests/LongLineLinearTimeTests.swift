import Foundation
import XCTest
import TestSupport

/// One long line (a minified bundle, a one-line dump) of one shape over and over, scanned with
/// the builtin pack: every rule, and every step taken per match, must cost time linear in the
/// line. Each shape here was quadratic in the 2026.12.5 release build, CPU seconds for the one
/// line: `key=' ` 300 KB 87 s (a rule's assignment loop ran from every quote to the line's end),
/// service keys 300 KB 30 s and XML password elements 300 KB 60 s (every line allowlist read the
/// whole line at every match), base64 tokens 300 KB 4.3 s, 100 KB 0.69 s (each decoded finding
/// found its line and inline marker again); run by the tests below, it passed 38 s on each.
/// Fixed, a release build takes 0.2 to 0.9 s of CPU on each, a debug build 0.2 to 6 s.
///
/// The bound is on the scan's CPU time (the children this process reaped), not the clock: on a
/// loaded machine the clock runs 10-20 times the CPU. It is a guard against a hang, far above
/// what a linear scan takes and far below what the quadratic one did.
final class LongLineLinearTimeTests: XCTestCase {
    let boundCPU = 20.0

    /// CPU seconds (user and system) of the children reaped so far.
    private func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Letters and digits that look random (a linear congruential generator, fixed seed): no
    /// placeholder, no real key.
    private func randomRun(_ n: Int, seed: UInt64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var state = seed
        return String((0..<n).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return alphabet[Int(state >> 33) % alphabet.count]
        })
    }

    /// Scans one file holding `unit` repeated to `size` bytes on one line; returns the findings.
    @discardableResult
    private func scanOneLine(of unit: String, size: Int, expectedStatus: Int32,
                             file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let tmp = TempDir()
        tmp.write("src/bundle.min.js", String(repeating: unit, count: size / unit.utf8.count) + "\n")
        let before = childrenCPU()
        let r = runProcess(Binary.url.path, ["scan", tmp.path + "/src", "--format", "json", "--no-config", "--no-progress"], timeout: 900)
        let cpu = childrenCPU() - before
        XCTAssertLessThan(cpu, boundCPU, "CPU seconds for one line of \(size / 1000) KB", file: file, line: line)
        XCTAssertEqual(r.status, expectedStatus, r.stderr, file: file, line: line)
        let object = try XCTUnwrap(r.report, file: file, line: line)
        XCTAssertEqual((object["errors"] as? [Any])?.count ?? 0, 0, "no rule gave up", file: file, line: line)
        return try XCTUnwrap(object["findings"] as? [[String: Any]], file: file, line: line)
    }

    /// `key` is no credential name, so a command-prefix rule took `key='` as one more assignment
    /// before a credential and ran on to the line's end from every quote.
    func testAQuoteAfterEveryKeywordScansInBoundedTime() throws {
        let findings = try scanOneLine(of: "key=' ", size: 300_000, expectedStatus: 0)
        XCTAssertEqual(findings.count, 0)
    }

    /// Each match checks its rule's line allowlists: over the whole line, every match read it
    /// all. Every unit is a finding, so the allowlists that read a bounded part of the line
    /// still drop none.
    func testServiceKeysOnOneLineAreEachFoundInBoundedTime() throws {
        let unit = "MAPBOX_KEY = \"\(randomRun(32, seed: 7))\" "
        let findings = try scanOneLine(of: unit, size: 400_000, expectedStatus: 1)
        XCTAssertEqual(findings.count, 400_000 / unit.utf8.count)
    }

    func testXMLPasswordElementsOnOneLineAreEachFoundInBoundedTime() throws {
        let unit = "<password>\(randomRun(16, seed: 11))</password> "
        let findings = try scanOneLine(of: unit, size: 300_000, expectedStatus: 1)
        XCTAssertEqual(findings.count, 300_000 / unit.utf8.count)
    }

    /// Findings in decoded values: each looked up its line's bounds and inline marker from
    /// scratch, and every raw finding of the buffer.
    func testEncodedTokensOnOneLineAreEachFoundInBoundedTime() throws {
        let units = (0..<50).map { k in Data(("ghp_" + randomRun(36, seed: UInt64(100 + k))).utf8).base64EncodedString() }
        let unit = units.joined(separator: " ") + " "
        let findings = try scanOneLine(of: unit, size: 1_000_000, expectedStatus: 1)
        XCTAssertEqual(findings.count, 1_000_000 / unit.utf8.count * 50)
    }
}
