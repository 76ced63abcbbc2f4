import Foundation
import XCTest
import TestSupport

/// keyshape over compiled artifacts: every planted string of Fixtures/binaries is reported
/// at the format, arch, section, file offset and address that LLVM's own tools computed
/// (expected.tsv), including each slice of the fat file and the UTF-16 literals.
final class BinaryScanTests: XCTestCase {
    struct Row { var fixture, format, arch, section, label: String; var fileOffset: Int; var address: String }

    func rows() throws -> [Row] {
        try String(contentsOfFile: Repo.path("Fixtures/binaries/expected.tsv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Row(fixture: f[0], format: f[1], arch: f[2], section: f[3], label: f[4], fileOffset: Int(f[5])!, address: f[6])
            }
    }

    func findings(_ args: [String]) throws -> [[String: Any]] {
        let r = keyshape(args + ["--format", "json", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let object = try XCTUnwrap(r.report)
        XCTAssertEqual((object["errors"] as! [Any]).count, 0, r.stdout)
        return (object["findings"] as! [[String: Any]]).map { $0["location"] as! [String: Any] }
            .enumerated().map { i, loc in
                var l = loc
                l["rule"] = ((object["findings"] as! [[String: Any]])[i]["rule"] as! String)
                return l
            }
    }

    func testEveryPlantedStringIsLocatedLikeLLVMSaysIt() throws {
        let rows = try rows()
        XCTAssertGreaterThanOrEqual(rows.count, 40)
        let found = try findings(["scan", Repo.path("Fixtures/binaries")])
        for row in rows {
            let rule = row.label == "field-key" ? "stripe-live-secret-key" : "keyshape-canary"
            let match = found.first { l in
                l["path"] as? String == row.fixture && l["fileOffset"] as? Int == row.fileOffset && l["rule"] as? String == rule
            }
            guard let match else { XCTFail("\(row.fixture) \(row.label): not found at \(row.fileOffset)"); continue }
            XCTAssertEqual(match["kind"] as? String, "binary")
            XCTAssertEqual(match["format"] as? String, row.format, "\(row.fixture) \(row.label)")
            XCTAssertEqual(match["arch"] as? String, row.arch, "\(row.fixture) \(row.label)")
            XCTAssertEqual(match["section"] as? String, row.section, "\(row.fixture) \(row.label)")
            if row.address != "-" {
                XCTAssertEqual(match["virtualAddress"] as? String, row.address, "\(row.fixture) \(row.label)")
            }
            XCTAssertNil(match["line"])
        }
    }

    func testFieldCaseTextOutputNamesArchAndSection() throws {
        let r = keyshape(["scan", Repo.path("Fixtures/binaries/macho/keys-arm64-ios.o"), "--no-progress"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains(":arm64:__TEXT,__cstring+0x314: stripe-live-secret-key "), r.stdout)
    }

    func testMalformedObjectIsAnErrorButStillScannedRaw() throws {
        let tmp = TempDir()
        // A Mach-O 64 header claiming 1000 load commands in a 64-byte file, then a canary.
        var bytes: [UInt8] = [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0x02, 0, 0, 0,
                              0xe8, 0x03, 0, 0, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        bytes += Array(("\u{0}\u{0}" + "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "binary1" + "\u{0}").utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: tmp.path + "/bad.dylib"))
        let r = keyshape(["scan", tmp.path, "--format", "json"])
        XCTAssertEqual(r.status, 2, r.stderr)
        let object = try XCTUnwrap(r.report)
        XCTAssertEqual((object["findings"] as! [[String: Any]]).count, 1, "the raw bytes are still scanned")
        let errors = object["errors"] as! [[String: String]]
        XCTAssertEqual(errors.first?["path"], "bad.dylib")
        XCTAssertTrue(errors.first?["message"]?.contains("malformed binary") ?? false, "\(errors)")
    }
}
