@testable import GitHistory
import XCTest

/// Cutting messages and people out of raw commit and tag objects (built here, as a
/// hostile repository could write them).
final class CommitTextsTests: XCTestCase {
    func parseCommit(_ text: String) -> (message: String, author: CommitTexts.Person?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            let p = CommitTexts.parseCommit(raw)
            return (String(decoding: raw[p.message], as: UTF8.self), p.author)
        }
    }

    func testMessageAfterHeadersWithASignatureContinuation() {
        let commit = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Ada <ada@example.com> 1700000000 -0230\n"
            + "committer Ada <ada@example.com> 1700000000 -0230\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n"
            + "\nsubject\n\nbody line\n"
        let p = parseCommit(commit)
        XCTAssertEqual(p.message, "subject\n\nbody line\n")
        XCTAssertEqual(p.author, CommitTexts.Person(name: "Ada", email: "ada@example.com", date: "2023-11-14T19:43:20-02:30"))
        XCTAssertEqual(parseCommit("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n").message, "", "no message at all")
        XCTAssertNil(parseCommit("tree x\nauthor no brackets\n\nm").author)
    }

    /// `messageRange` (the history scan's cut, headers not parsed) gives what `parseCommit`
    /// gives, for well-formed commits and for what a hostile repository can write: no empty
    /// line, an empty line first, blank lines and NULs inside the message, a newline last.
    func testMessageRangeAgreesWithTheFullParse() {
        let cases: [[UInt8]] = [
            "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 0 +0000\n\nsubject\n\nbody\n",
            "tree x\ngpgsig -----BEGIN-----\n \n sig\n -----END-----\n\n\n\nafter blank lines\n",
            "tree x\n", "tree x", "", "\n", "\n\n", "\nmessage with no headers", "tree x\n\n", "a\n\nb\n\nc",
            "tree x\r\n\r\nnot an empty line\n", "tree x\n \nstill headers\n\nmsg",
        ].map { Array($0.utf8) } + [
            Array("tree x\n\nkey \u{0}after NUL\n".utf8), [0x74, 0x0A, 0x0A], [0x0A, 0x0A, 0x0A], [0x00, 0x0A, 0x0A, 0x00],
        ]
        for bytes in cases {
            bytes.withUnsafeBytes { raw in
                XCTAssertEqual(CommitTexts.messageRange(raw), CommitTexts.parseCommit(raw).message, "\(bytes)")
            }
        }
        // Every cut of one commit (each prefix is an object git could be handed).
        let full = Array("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nm\n\nn\n".utf8)
        for end in 0...full.count {
            Array(full[0..<end]).withUnsafeBytes { raw in
                XCTAssertEqual(CommitTexts.messageRange(raw), CommitTexts.parseCommit(raw).message, "the first \(end) bytes")
            }
        }
    }

    func testTagFields() {
        let text = "object 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ntype commit\ntag v1\u{1B}\ntagger T <t@x> 0 +0000\n\nmsg\n"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            let t = CommitTexts.parseTag(raw)
            XCTAssertEqual(t.object?.hex, "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
            XCTAssertEqual(t.type, "commit")
            XCTAssertEqual(t.name, Array("v1\u{1B}".utf8))
            XCTAssertEqual(t.tagger?.date, "1970-01-01T00:00:00+00:00")
            XCTAssertEqual(String(decoding: raw[t.message], as: UTF8.self), "msg\n")
        }
    }

    func testDatesBeforeTheEpochAndOutOfRange() {
        XCTAssertEqual(CommitTexts.isoDate(seconds: -1, zone: "+0100"), "1970-01-01T00:59:59+01:00")
        XCTAssertEqual(CommitTexts.isoDate(seconds: 951_782_400, zone: "+0000"), "2000-02-29T00:00:00+00:00")
        XCTAssertNil(CommitTexts.isoDate(seconds: .max, zone: "+0100"))
        XCTAssertNil(CommitTexts.isoDate(seconds: 0, zone: "0100"))
    }
}
