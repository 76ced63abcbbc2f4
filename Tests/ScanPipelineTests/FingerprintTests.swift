import XCTest
import ScanCore
@testable import ScanPipeline

/// One fingerprint function for every provenance: the values keyshape always gave for
/// files, binaries and unreachable blobs stay, and staged files and commit blobs at the
/// same path share them.
final class FingerprintTests: XCTestCase {
    let hash = "0123456789abcdef"

    func fingerprint(_ provenance: Provenance, section: String? = nil) -> String {
        var l = Location(provenance, byteOffset: 0, byteLength: 10)
        if let section { l.binary = BinaryPlace(format: "mach-o", arch: "arm64", section: section, fileOffset: 0) }
        return SecretHasher.fingerprint(rule: "r", location: l, secretHash: hash)
    }

    func testFilesStagedFilesAndCommitBlobsAtOnePathShareTheFingerprintScanAlwaysGave() {
        let path = Array("App.o".utf8)
        let blob = Provenance.CommitBlob(commit: String(repeating: "1", count: 40), author: "A", email: "e", date: "d",
                                         blob: String(repeating: "2", count: 40), path: path)
        for section in [nil, "__TEXT,__const"] {
            let old = SecretHasher.fingerprint(rule: "r", pathBytes: path, section: section, secretHash: hash)
            XCTAssertEqual(fingerprint(.file(path: path), section: section), old)
            XCTAssertEqual(fingerprint(.staged(path: path), section: section), old)
            XCTAssertEqual(fingerprint(.commitBlob(blob), section: section), old)
        }
        XCTAssertNotEqual(fingerprint(.file(path: path)), fingerprint(.file(path: path), section: "__TEXT,__const"))
    }

    func testUnreachableBlobsKeepTheirFingerprintAndOtherKindsAreTheirOwnPlaces() {
        let id = String(repeating: "3", count: 40)
        XCTAssertEqual(fingerprint(.unreachableBlob(blob: id)), SecretHasher.fingerprint(rule: "r", path: "", section: id, secretHash: hash))
        let file = Provenance.file(path: Array("a.zip".utf8))
        let member = Provenance.archiveMember(parent: file, member: Array("b.txt".utf8))
        XCTAssertEqual(fingerprint(member), SecretHasher.fingerprint(rule: "r", path: "a.zip!b.txt", section: nil, secretHash: hash))
        XCTAssertEqual(fingerprint(.decoded(parent: member, encoding: "base64", sourceRange: 0..<4)), fingerprint(member),
                       "decoding is how a secret was seen, not where it is")
        let commit = String(repeating: "4", count: 40)
        let texts = [fingerprint(.commitText(commit: commit, field: .message)), fingerprint(.commitText(commit: commit, field: .tag(name: "v1"))),
                     fingerprint(.commitText(commit: commit, field: .note(notesRef: "refs/notes/commits")))]
        XCTAssertEqual(Set(texts).count, 3)
    }
}
