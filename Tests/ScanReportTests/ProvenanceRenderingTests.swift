import XCTest
import ScanCore
@testable import ScanReport

/// Every provenance kind is rendered by the same code: JSON fields in the contract's order
/// and one text form, archive members outermost first, encodings outside in.
final class ProvenanceRenderingTests: XCTestCase {
    func json(_ l: Location) -> String { JSONWriter.render(JSONReporter.location(l), pretty: false) }

    func testArchiveMemberInABinaryNamesTheChainAndTheSection() {
        let ipa = Provenance.archiveMember(parent: .file(path: Array("dist/App.ipa".utf8)), member: Array("Payload/App.app/App".utf8))
        var l = Location(ipa, byteOffset: 0x314, byteLength: 40)
        l.binary = BinaryPlace(format: "mach-o", arch: "arm64", section: "__TEXT,__cstring", fileOffset: 0x314, virtualAddress: 0x1_0000_0314)
        XCTAssertEqual(l.text, "dist/App.ipa!Payload/App.app/App:arm64:__TEXT,__cstring+0x314")
        XCTAssertEqual(json(l), #"{"kind":"binary","path":"dist/App.ipa","archive":["Payload/App.app/App"],"format":"mach-o","arch":"arm64","section":"__TEXT,__cstring","fileOffset":788,"virtualAddress":"0x100000314","byteOffset":788,"byteLength":40}"#)
    }

    func testNestedMembersAndDecodedText() {
        let inner = Provenance.archiveMember(parent: .archiveMember(parent: .file(path: Array("libs.zip".utf8)), member: Array("inner.jar".utf8)),
                                             member: Array("application.properties".utf8))
        var l = Location(.decoded(parent: inner, encoding: "base64", sourceRange: 20..<80), byteOffset: 20, byteLength: 60)
        l.setText(line: 3, column: 12, endLine: 3, endColumn: 72)
        XCTAssertEqual(l.text, "libs.zip!inner.jar!application.properties:3:12")
        XCTAssertEqual(json(l), #"{"kind":"file","path":"libs.zip","archive":["inner.jar","application.properties"],"decoded":["base64"],"line":3,"column":12,"endLine":3,"endColumn":72,"byteOffset":20,"byteLength":60}"#)
    }

    func testCommitTextHasFieldAndNoPath() {
        let commit = String(repeating: "ab", count: 20)
        var message = Location(.commitText(commit: commit, field: .message), byteOffset: 5, byteLength: 30)
        message.setText(line: 2, column: 1, endLine: 2, endColumn: 31)
        XCTAssertEqual(message.text, "abababa message:2:1")
        XCTAssertEqual(json(message), #"{"kind":"commit","commit":"\#(commit)","field":"message","line":2,"column":1,"endLine":2,"endColumn":31,"byteOffset":5,"byteLength":30}"#)
        var tag = Location(.commitText(commit: commit, field: .tag(name: "v1\n")), byteOffset: 0, byteLength: 30)
        tag.setText(line: 1, column: 1, endLine: 1, endColumn: 31)
        XCTAssertEqual(tag.text, #"abababa tag v1\n:1:1"#, "names from the repository are escaped")
        XCTAssertTrue(json(tag).contains(#""field":"tag","tag":"v1\n""#), json(tag))
        let note = Location(.commitText(commit: commit, field: .note(notesRef: "refs/notes/commits")), byteOffset: 0, byteLength: 30)
        XCTAssertTrue(json(note).contains(#""field":"note","notesRef":"refs/notes/commits""#), json(note))
        XCTAssertNil(note.path)
    }

    func testStagedAndHistoryBinariesPrintTheirPlaceNotZeroLines() {
        var staged = Location(.staged(path: Array("App.o".utf8)), byteOffset: 620, byteLength: 41)
        staged.binary = BinaryPlace(format: "mach-o", arch: "arm64", section: "__DATA,__data", fileOffset: 620, virtualAddress: 0x34)
        XCTAssertEqual(staged.text, "App.o:arm64:__DATA,__data+0x26c")
        XCTAssertEqual(staged.kind, .staged)
        let blob = Provenance.CommitBlob(commit: String(repeating: "1", count: 40), author: "A", email: "a@e", date: "d",
                                         blob: String(repeating: "2", count: 40), path: Array("App.o".utf8))
        var history = Location(.commitBlob(blob), byteOffset: 620, byteLength: 41)
        history.binary = staged.binary
        XCTAssertEqual(history.text, "1111111 App.o:arm64:__DATA,__data+0x26c")
        XCTAssertEqual(history.kind, .commit)
    }
}
