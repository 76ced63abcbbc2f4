import TestSupport
import TOML
import XCTest

/// Random and mutated inputs: the reader must return or throw a `TOMLError`,
/// never crash or hang, and whatever it accepts must survive a write/read. Seeded, so a
/// failure reproduces.
final class FuzzTests: XCTestCase {
    private static let seedDocument = GitleaksConfigTests.sample + #"""

    [types]
    ints = [0, -1, +2, 0x1F, 0o17, 0b101, 1_000]
    floats = [1.5, -2e-3, inf, -nan, 6.626e-34]
    dates = [1979-05-27T07:32:00Z, 1979-05-27 07:32:00, 07:32:00.5, 1979-05-27]
    strings = ["a\tb\u00E9\U0001F600", 'lit', """
    multi \
      line""", '''raw
    lines''']
    inline = { a.b = 1, "c" = [ { d = true } ], e = {} }
    "quoted key".bare = false
    """#

    /// Characters that steer the parser into its different paths.
    private static let alphabet: [String] = [
        "[", "]", "[[", "]]", "{", "}", "=", ",", ".", "\"", "'", "\"\"\"", "'''", "\\", "#", "\n", "\r\n", "\r",
        " ", "\t", "a", "b", "0", "1", "9", "_", "-", "+", "e", "x", "o", "inf", "nan", "true", "false", ":",
        "T", "Z", "u", "U", "é", "😀", "\u{0}", "\u{7F}", "1979-05-27", "07:32:00", "\\u00", "\\U0001",
    ]

    func testRandomTokenSequences() {
        var generator = SeededGenerator(seed: 0x5EED)
        let start = ContinuousClock.now
        var accepted = 0
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var text = ""
            for _ in 0..<length { text += Self.alphabet.randomElement(using: &generator)! }
            if check(text) { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 0, "some random documents should be valid")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(60))
    }

    func testMutatedDocuments() {
        var generator = SeededGenerator(seed: 42)
        let original = Array(Self.seedDocument.utf8)
        XCTAssertTrue(check(Self.seedDocument), "the seed document itself must parse")
        let interesting: [UInt8] = Array("[]{}=,.\"'\\#\n\r \t0aeE_+-:xob".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF]
        let start = ContinuousClock.now
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                guard !bytes.isEmpty else { break }
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(interesting.randomElement(using: &generator)!, at: at)
                case 2: bytes[at] = interesting.randomElement(using: &generator)!
                case 3: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &generator))
                    let chunk = bytes[at..<end]
                    bytes.insert(contentsOf: chunk, at: Int.random(in: 0...bytes.count, using: &generator))
                }
            }
            check(bytes: bytes)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(60))
    }

    func testEveryPrefixOfTheSeedDocument() {
        let bytes = Array(Self.seedDocument.utf8)
        for end in 0...bytes.count {
            check(bytes: Array(bytes[..<end]))
        }
    }

    func testRandomBytes() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            check(bytes: bytes)
        }
    }

    // MARK: Checks

    private func check(bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        do {
            let table = try TOMLReader.parse(bytes: bytes, file: "fuzz")
            if let text = String(validating: bytes, as: UTF8.self) {
                XCTAssertEqual(try? TOMLReader.parse(text, file: "fuzz"), table, file: file, line: line)
            }
            checkRoundTrip(table, file: file, line: line)
        } catch let error as TOMLError {
            checkPlausible(error, lineCount: bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count,
                           file: file, line: line)
        } catch {
            XCTFail("non-TOML error \(error)", file: file, line: line)
        }
    }

    /// Returns whether the text was accepted.
    @discardableResult
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            let table = try TOMLReader.parse(text, file: "fuzz")
            checkRoundTrip(table, file: file, line: line)
            return true
        } catch let error as TOMLError {
            checkPlausible(error, lineCount: text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count,
                           file: file, line: line)
            return false
        } catch {
            XCTFail("non-TOML error \(error)", file: file, line: line)
            return false
        }
    }

    private func checkRoundTrip(_ table: TOMLTable, file: StaticString, line: UInt) {
        let written = TOMLWriter.write(table)
        do {
            let reread = try TOMLReader.parse(written, file: "written")
            XCTAssertEqual(reread, table, written, file: file, line: line)
        } catch {
            XCTFail("written document does not parse: \(error)\n\(written)", file: file, line: line)
        }
    }

    private func checkPlausible(_ error: TOMLError, lineCount: Int, file: StaticString, line: UInt) {
        XCTAssertEqual(error.file, "fuzz", file: file, line: line)
        XCTAssertTrue((1...lineCount).contains(error.line), "\(error) outside \(lineCount) lines", file: file, line: line)
        XCTAssertGreaterThanOrEqual(error.column, 1, file: file, line: line)
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
    }
}
