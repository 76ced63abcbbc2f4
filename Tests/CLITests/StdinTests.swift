import Foundation
import TestSupport
import XCTest

/// `keyshape scan -`: standard input, bounded by --max-file-size, reported as `-` or
/// `--stdin-name NAME`, binaries scanned as the same file on disk would be.
final class StdinTests: XCTestCase {
    let secret = canary("stdin1")

    func scan(_ args: [String], input: Data) -> Run {
        try! runProcess(Binary.url, ["scan", "-", "--no-progress"] + args, input: input, timeout: 120)
    }

    func testTextOnStdinIsScannedAndNamed() {
        let input = Data("first line\ntoken = \(secret)\n".utf8)
        let plain = scan([], input: input)
        XCTAssertEqual(plain.status, 1, plain.stderr)
        XCTAssertTrue(plain.stdout.hasPrefix("-:2:9: keyshape-canary "), plain.stdout)
        assertNoFragment(of: secret, in: plain.stdout + plain.stderr, "stdin scan")
        let named = scan(["--stdin-name", "config/app.env", "--format", "jsonl"], input: input)
        let object = try! JSONSerialization.jsonObject(with: Data(named.stdout.split(separator: "\n")[0].utf8)) as! [String: Any]
        XCTAssertEqual((object["location"] as! [String: Any])["path"] as? String, "config/app.env")
        XCTAssertEqual(scan([], input: Data("nothing here\n".utf8)).status, 0)
    }

    func testBinaryOnStdinIsScannedAsTheFileWouldBe() throws {
        let path = Repo.path("Fixtures/binaries/macho/keys-arm64-ios.o")
        let fromFile = keyshape(["scan", path, "--format", "json", "--no-progress"])
        let fromStdin = scan(["--format", "json", "--stdin-name", path], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(fromStdin.status, 1, fromStdin.stderr)
        let locations = { (run: Run) -> [[String: String]] in
            let object = run.report!
            return (object["findings"] as! [[String: Any]]).map { f in
                (f["location"] as! [String: Any]).mapValues { "\($0)" }.merging(["fingerprint": f["fingerprint"] as! String]) { a, _ in a }
            }
        }
        let expected = locations(fromFile)
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(expected.first?["kind"], "binary")
        XCTAssertEqual(expected.first?["format"], "mach-o")
        XCTAssertEqual(locations(fromStdin), expected, "same sections, offsets and fingerprints")
    }

    func testInputOverTheSizeLimitIsAnError() {
        let r = scan(["--max-file-size", "64"], input: Data(String(repeating: "x", count: 4096).utf8))
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("keyshape: error: -: standard input is over the 64-byte limit"), r.stderr)
    }

    func testStdinCannotBeMixedWithPaths() {
        let r = keyshape(["scan", "-", "."])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("reads standard input alone"), r.stderr)
    }
}
