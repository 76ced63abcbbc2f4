import XCTest
@testable import ObjectFiles

final class UTF16TextTests: XCTestCase {
    private func extract(_ bytes: [UInt8], min: Int = 4) -> (String, [UTF16Text.Run]) {
        var decoded: [UInt8] = []
        var runs: [UTF16Text.Run] = []
        bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: min, into: &decoded, runs: &runs) }
        return (String(decoding: decoded, as: UTF8.self), runs)
    }

    private func utf16le(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
    }

    private func utf16be(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }

    func testEvenAndOddAlignmentInSourceOrder() {
        let bytes: [UInt8] = [0xff] + utf16le("OddRun") + [0xff, 0xff] + utf16le("EvenRun!") + [0xff]
        // "OddRun" starts at 1, "EvenRun!" at 1 + 12 + 2 = 15: also odd. Make the second even.
        let shifted = bytes + [0x01] + utf16le("Later") + [0x02]
        let (text, runs) = extract(shifted)
        XCTAssertEqual(text, "OddRun\nEvenRun!\nLater\n")
        XCTAssertEqual(runs.map(\.sourceOffset), [1, 15, 15 + 16 + 2])
        XCTAssertEqual(runs.map(\.decodedRange), [0..<6, 7..<15, 16..<21])
        for run in runs {
            for i in run.decodedRange {
                let offset = run.sourceOffset(ofDecoded: i)
                XCTAssertEqual(shifted[offset], Array(text.utf8)[i])
                XCTAssertEqual(shifted[offset + 1], 0)
            }
        }
    }

    func testMinimumLengthAndNonASCII() {
        let bytes = utf16le("abc") + [0xff, 0xff] + utf16le("abcd") + [0xff, 0xff] + utf16le("naïve-text")
        let (text, runs) = extract(bytes)
        // "ï" is U+00EF: its high byte is 0 but its low byte is not printable ASCII; it splits.
        XCTAssertEqual(text, "abcd\nve-text\n")
        XCTAssertEqual(runs.count, 2)
    }

    func testRunAtTheEndAndTabs() {
        let bytes: [UInt8] = [0x00] + utf16le("tab\there")  // odd alignment, to the very end
        let (text, runs) = extract(bytes)
        XCTAssertEqual(text, "tab\there\n")
        XCTAssertEqual(runs, [UTF16Text.Run(decodedRange: 0..<8, sourceOffset: 1)])
    }

    /// Big-endian text keeps its last character: the segment starts with a 0 and ends with a
    /// printable byte, so it is read from its first byte.
    func testBigEndianRunKeepsEveryCharacter() {
        let bytes: [UInt8] = [0xff] + utf16be("BigEndian") + [0xff]
        let (text, runs) = extract(bytes)
        XCTAssertEqual(text, "BigEndian\n")
        XCTAssertEqual(runs, [UTF16Text.Run(decodedRange: 0..<9, sourceOffset: 1)])
        XCTAssertEqual(runs[0].sourceOffset(ofDecoded: 8), 17, "the last code unit's offset")
    }

    func testASCIITextAloneIsNotUTF16() {
        let (text, runs) = extract(Array("plain ascii text, no zeros".utf8))
        XCTAssertEqual(text, "")
        XCTAssertEqual(runs, [])
        XCTAssertEqual(extract([]).1, [])
        XCTAssertEqual(extract([0x41]).1, [])
        XCTAssertEqual(extract([0x41, 0x00], min: 0).1.count, 1, "minLength below 1 acts as 1")
    }

    func testAppendsToExistingOutput() {
        var decoded = Array("prior\n".utf8)
        var runs = [UTF16Text.Run(decodedRange: 0..<5, sourceOffset: 0)]
        utf16le("second").withUnsafeBytes { UTF16Text.extract($0, minLength: 4, into: &decoded, runs: &runs) }
        XCTAssertEqual(String(decoding: decoded, as: UTF8.self), "prior\nsecond\n")
        XCTAssertEqual(runs.last, UTF16Text.Run(decodedRange: 6..<12, sourceOffset: 0))
    }

    /// The u"..." literal in every fixture is found at the offset LLVM's tools put it.
    func testUTF16LiteralInFixtures() throws {
        for row in try Fixtures.expectations() where row.label == "utf16-canary" {
            let bytes = try Fixtures.bytes(row.fixture)
            var decoded: [UInt8] = []
            var runs: [UTF16Text.Run] = []
            bytes.withUnsafeBytes { UTF16Text.extract($0, minLength: 16, into: &decoded, runs: &runs) }
            let run = try XCTUnwrap(runs.first { $0.sourceOffset == row.fileOffset }, "\(row.fixture) \(row.arch)")
            XCTAssertTrue(String(decoding: decoded[run.decodedRange], as: UTF8.self).hasPrefix(Canary.text("Utf16")))
        }
    }
}
