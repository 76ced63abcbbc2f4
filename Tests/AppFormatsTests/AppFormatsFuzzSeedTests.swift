import AppFormats
import Foundation
import XCTest

/// Replays every committed app-format fuzz seed (and any crash input added after a fix)
/// through AppFormatsCheck, the harnesses' own checks, so CI covers them without libFuzzer.
final class AppFormatsFuzzSeedTests: XCTestCase {
    func replay(_ group: String, as formats: [AppFormat]) throws {
        let folder = URL(fileURLWithPath: Repo.path("Fixtures/fuzz/" + group))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 1, group)
        var recognised = 0
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            for format in formats { XCTAssertEqual(AppFormatsCheck.problems(bytes, as: format), [], "\(group)/\(name)") }
            if let doc = try? bytes.withUnsafeBytes({ try AppFormatParser.parse($0) }), !doc.strings.isEmpty { recognised += 1 }
        }
        // The seeds start the fuzzer inside the parser: at least one is a real file of the format.
        XCTAssertGreaterThanOrEqual(recognised, 1, group)
    }

    func testBinaryPlistSeeds() throws { try replay("bplist", as: [.binaryPlist]) }
    func testDEXSeeds() throws { try replay("dex", as: [.dex]) }
    func testAndroidResourceSeeds() throws { try replay("android", as: [.androidXML, .resourceTable]) }
    func testJavaClassSeeds() throws { try replay("class", as: [.javaClass]) }

    func testTheChecksPassTrivialInputs() {
        for format in AppFormat.allCases {
            XCTAssertEqual(AppFormatsCheck.problems([], as: format), [])
            XCTAssertEqual(AppFormatsCheck.problems(Array("plain".utf8), as: format), [])
        }
    }
}
