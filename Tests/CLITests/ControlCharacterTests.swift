import Foundation
import XCTest
import TestSupport

/// File names are data: a name holding a newline, a carriage return or an escape sequence
/// prints escaped, so it can neither forge a finding line nor drive the terminal, on stdout
/// (findings) or stderr (errors, notes, the summary).
final class ControlCharacterTests: XCTestCase {
    let canary = "TEST_SECRET_" + "MUST_NEVER_LEAK_" + "names123"
    let forged = "a\nforged.txt:1:1: fake-rule (Fake) [0000000000000000]\rb\u{1B}[2Jc\u{1B}]0;title\u{7}d\u{7F}\u{9B}e.txt"

    /// Bytes a terminal acts on: C0 (but the newline that ends each line), DEL, and C1 as
    /// UTF-8 (C2 80 to C2 9F).
    func rawControls(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var found: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            if (b < 0x20 && b != 0x0A) || b == 0x7F { found.append(b) }
            if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { found.append(bytes[i + 1]) }
        }
        return found
    }

    func testHostileFileNamesPrintOneEscapedLinePerFinding() throws {
        let tmp = TempDir()
        tmp.write("src/" + forged, "key = \(canary)\n")
        tmp.write("src/plain.txt", "key = \(canary)\n")
        let r = keyshape(["scan", tmp.path + "/src", "--no-progress"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, "two findings, one line each: \(r.stdout.debugDescription)")
        XCTAssertEqual(lines.filter { $0.contains("keyshape-canary") }.count, 2)
        XCTAssertFalse(r.stdout.contains("\nforged.txt"), "no line starts with the forged text")
        XCTAssertTrue(r.stdout.contains(#"a\nforged.txt:1:1: fake-rule (Fake) [0000000000000000]\rb\x1b[2Jc\x1b]0;title\x07d\x7f\u{9b}e.txt:1:7: keyshape-canary"#), r.stdout)
        XCTAssertEqual(rawControls(r.stdoutData), [], "stdout")
        XCTAssertEqual(rawControls(Data(r.stderr.utf8)), [], "stderr")

        // JSON keeps the exact name, escaped as JSON requires.
        let json = keyshape(["scan", tmp.path + "/src", "--format", "json"])
        XCTAssertEqual(rawControls(json.stdoutData), [])
        let object = try XCTUnwrap(json.report)
        let paths = (object["findings"] as! [[String: Any]]).map { ($0["location"] as! [String: Any])["path"] as! String }
        XCTAssertEqual(Set(paths), [forged, "plain.txt"])
        for format in ["jsonl", "sarif"] {
            let other = keyshape(["scan", tmp.path + "/src", "--format", format])
            XCTAssertEqual(other.status, 1)
            XCTAssertEqual(rawControls(other.stdoutData), [], format)
            XCTAssertEqual(rawControls(Data(other.stderr.utf8)), [], format)
        }
    }

    func testErrorsAndNotesEscapeNamesToo() throws {
        let tmp = TempDir()
        tmp.write("src/" + forged, "key = \(canary)\n")
        // Too large to read: an error entry naming the file, on stderr in text mode.
        let tooLarge = keyshape(["scan", tmp.path + "/src", "--max-file-size", "4"])
        XCTAssertEqual(tooLarge.status, 2)
        XCTAssertTrue(tooLarge.stderr.contains(#"a\nforged.txt"#), tooLarge.stderr)
        XCTAssertEqual(rawControls(Data(tooLarge.stderr.utf8)), [], "errors")
        XCTAssertEqual(tooLarge.stderr.split(separator: "\n").filter { $0.hasPrefix("forged.txt") }.count, 0)

        // A FIFO is noted, never opened; the note names it escaped.
        XCTAssertEqual(mkfifo(tmp.path + "/src/fifo\u{1B}[31m\nx", 0o600), 0)
        let noted = keyshape(["scan", tmp.path + "/src"])
        XCTAssertEqual(rawControls(Data(noted.stderr.utf8)), [], "notes: \(noted.stderr.debugDescription)")
        XCTAssertTrue(noted.stderr.contains(#"fifo\x1b[31m\nx"#), noted.stderr)

        // A path given on the command line that does not exist: the error echoes the path
        // (it is one), escaped.
        let missing = keyshape(["scan", tmp.path + "/nope\u{1B}[2J\n"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(rawControls(Data(missing.stderr.utf8)), [], "missing path")
    }
}
