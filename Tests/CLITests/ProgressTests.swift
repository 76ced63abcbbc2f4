import Foundation
import XCTest
import TestSupport

/// `--progress` lines an auditor can read: counts of their totals, MB, MB/s and an ETA while
/// one can be worked out; keyshape's own labels only, never a value, a path or a ref name.
final class ProgressTests: XCTestCase {
    let a = canary("ProgressKey1"), b = canary("ProgressKey2")

    /// The progress lines of a stderr (between redraw codes), with every other line.
    func progressLines(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        for s in [a, b] { assertNoFragment(of: s, in: stderr, "stderr", file: file, line: line) }
        let pieces = stderr.replacingOccurrences(of: "\r\u{1B}[K", with: "\n").split(separator: "\n").map(String.init)
        for p in pieces {
            XCTAssertFalse(p.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, p.debugDescription, file: file, line: line)
        }
        return pieces.filter { $0.hasPrefix("keyshape: ") && ($0.contains(" MB/s")) }
    }

    static let eta = #"(, ETA ([0-9]+s|[0-9]+m[0-9]{2}s|[0-9]+h[0-9]{2}m))?"#
    /// A bar of 20 cells and the share in percent, when the total is known.
    static let bar = #"(\[(=*>?) *\] +[0-9]{1,3}% )?"#
    static let historyShape = #"^keyshape: (history: )?"# + bar + #"commits [0-9]+(/[0-9]+)?, blobs [0-9]+/[0-9]+, [0-9]+\.[0-9] MB, [0-9]+ MB/s"# + eta + "$"
    static let filesShape = #"^keyshape: (sources: |products: )?"# + bar + #"[0-9]+/[0-9]+ files?, [0-9]+\.[0-9](/[0-9]+\.[0-9])? MB, [0-9]+ MB/s"# + eta + "$"

    func assertShape(_ lines: [String], _ pattern: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(lines.isEmpty, "no progress line", file: file, line: line)
        for l in lines {
            XCTAssertNotNil(l.range(of: pattern, options: .regularExpression), "progress line \(l.debugDescription)", file: file, line: line)
        }
    }

    func fixture() -> GitFixture {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        repo.commit("init")
        repo.write("deploy.env", "TOKEN=\(a)\n")
        repo.commit("add \(b)")
        repo.write("README", "hello again\n")
        repo.commit("third")
        return repo
    }

    func testHistoryProgressCountsCommitsAndBlobsOfTheirTotals() {
        let repo = fixture()
        let r = keyshape(["history", repo.path, "--progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = progressLines(r.stderr).filter { $0.contains(" commits ") || $0.hasPrefix("keyshape: commits") }
        assertShape(lines, ProgressTests.historyShape)
        // The last line drawn is the totals: every commit and blob done.
        XCTAssertTrue(lines.last?.hasPrefix("keyshape: [====================] 100% commits 3/3, blobs 3/3, ") == true, "\(lines)")
        // Without --progress (and stderr no terminal): none.
        XCTAssertEqual(progressLines(keyshape(["history", repo.path]).stderr).filter { $0.contains("commits ") }, [])
    }

    func testScanProgress() {
        let repo = fixture()
        let r = keyshape(["scan", repo.path, "--progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = progressLines(r.stderr).filter { !$0.hasPrefix("keyshape: 1 finding") }
        assertShape(lines, ProgressTests.filesShape)
        // The last line drawn is the totals: a full bar, every file and byte of the listing.
        XCTAssertTrue(lines.last?.hasPrefix("keyshape: [====================] 100% ") == true, "\(lines)")
        if let last = lines.last, let mb = last.range(of: #"[0-9.]+/[0-9.]+ MB"#, options: .regularExpression) {
            let halves = last[mb].dropLast(3).split(separator: "/")
            XCTAssertEqual(halves.first, halves.last, "bytes read equal bytes listed at the end: \(lines)")
        } else {
            XCTFail("no read/listed MB on the last line: \(lines)")
        }
    }

    /// The bar and the ETA go by bytes, not by files: a scan whose first file is most of the
    /// bytes shows the share of bytes done.
    func testBarGoesByBytes() {
        let tree = TempDir()
        tree.write("big.txt", String(repeating: "a line of ordinary text\n", count: 1_000_000))
        for i in 0..<50 { tree.write("small\(i).txt", "x\n") }
        let r = keyshape(["scan", tree.path, "--progress"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = progressLines(r.stderr)
        assertShape(lines, ProgressTests.filesShape)
        // At the end: 51/51 files, the bytes of all, 100%.
        XCTAssertTrue(lines.last?.hasPrefix("keyshape: [====================] 100% 51/51 files, 24.0/24.0 MB, ") == true, "\(lines)")
    }

    func testAuditShowsProgressForEachPart() {
        let repo = fixture()
        let products = TempDir()
        products.write("app.cfg", "key=\(a)\n")
        let r = keyshape(["audit", repo.path, "--products", products.path, "--progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = progressLines(r.stderr)
        let sources = lines.filter { $0.hasPrefix("keyshape: sources: ") }
        let history = lines.filter { $0.hasPrefix("keyshape: history: ") }
        let built = lines.filter { $0.hasPrefix("keyshape: products: ") }
        assertShape(sources, ProgressTests.filesShape)
        assertShape(history, ProgressTests.historyShape)
        assertShape(built, ProgressTests.filesShape)
        XCTAssertTrue(history.last?.hasPrefix("keyshape: history: [====================] 100% commits 3/3, ") == true, "\(history)")
    }
}
