import XCTest
import ScanCore
@testable import ScanPipeline

/// One fingerprint function for every provenance, made of rule, place and the value's ordinal
/// there (no value): staged files and commit blobs at a path share a file's; release 0.2's form
/// is still computed to match its baselines.
final class FingerprintTests: XCTestCase {
    func location(_ provenance: Provenance, section: String? = nil) -> Location {
        var l = Location(provenance, byteOffset: 0, byteLength: 10)
        if let section { l.binary = BinaryPlace(format: "mach-o", arch: "arm64", section: section, fileOffset: 0) }
        return l
    }

    func fingerprint(_ provenance: Provenance, section: String? = nil, ordinal: Int = 0) -> String {
        SecretHasher.fingerprint(rule: "r", location: location(provenance, section: section), ordinal: ordinal)
    }

    func testFilesStagedFilesAndCommitBlobsAtOnePathShareTheFingerprint() {
        let path = Array("App.o".utf8)
        let blob = Provenance.CommitBlob(commit: String(repeating: "1", count: 40), author: "A", email: "e", date: "d",
                                         blob: String(repeating: "2", count: 40), path: path)
        for section in [nil, "__TEXT,__const"] {
            let file = SecretHasher.fingerprint(rule: "r", pathBytes: path, section: section, ordinal: 0)
            XCTAssertEqual(fingerprint(.file(path: path), section: section), file)
            XCTAssertEqual(fingerprint(.staged(path: path), section: section), file)
            XCTAssertEqual(fingerprint(.commitBlob(blob), section: section), file)
        }
        XCTAssertNotEqual(fingerprint(.file(path: path)), fingerprint(.file(path: path), section: "__TEXT,__const"))
        XCTAssertNotEqual(fingerprint(.file(path: path)), fingerprint(.file(path: path), ordinal: 1), "two values at one place")
        XCTAssertEqual(fingerprint(.file(path: path)).count, 16)
    }

    func testOtherKindsAreTheirOwnPlaces() {
        let id = String(repeating: "3", count: 40)
        XCTAssertEqual(fingerprint(.unreachableBlob(blob: id)), SecretHasher.fingerprint(rule: "r", pathBytes: [], section: id, ordinal: 0))
        let file = Provenance.file(path: Array("a.zip".utf8))
        let member = Provenance.archiveMember(parent: file, member: Array("b.txt".utf8))
        XCTAssertEqual(fingerprint(member), SecretHasher.fingerprint(rule: "r", pathBytes: Array("a.zip!b.txt".utf8), section: nil, ordinal: 0))
        XCTAssertEqual(fingerprint(.decoded(parent: member, encoding: "base64", sourceRange: 0..<4)), fingerprint(member),
                       "decoding is how a secret was seen, not where it is")
        let commit = String(repeating: "4", count: 40)
        let texts = [fingerprint(.commitText(commit: commit, field: .message)), fingerprint(.commitText(commit: commit, field: .tag(name: "v1"))),
                     fingerprint(.commitText(commit: commit, field: .note(notesRef: "refs/notes/commits")))]
        XCTAssertEqual(Set(texts).count, 3)
    }

    /// Ordinals count distinct values per rule and place, in the order they come; the same
    /// value again keeps its ordinal; another rule or place counts on its own.
    func testOrdinalsCountDistinctValuesPerRuleAndPlace() {
        var ordinals = FingerprintOrdinals()
        let a = location(.file(path: Array("a.txt".utf8))), b = location(.file(path: Array("b.txt".utf8)))
        XCTAssertEqual(ordinals.ordinal(rule: "r", location: a, identity: "x"), 0)
        XCTAssertEqual(ordinals.ordinal(rule: "r", location: a, identity: "y"), 1)
        XCTAssertEqual(ordinals.ordinal(rule: "r", location: a, identity: "x"), 0)
        XCTAssertEqual(ordinals.ordinal(rule: "s", location: a, identity: "y"), 0)
        XCTAssertEqual(ordinals.ordinal(rule: "r", location: b, identity: "y"), 0)
        ordinals.reset()
        XCTAssertEqual(ordinals.ordinal(rule: "r", location: a, identity: "y"), 0)
    }

    /// Release 0.2's fingerprint, recomputed from its definition: SHA-256 of the domain, rule,
    /// path, section and the PBKDF2 secret hash (salt `keyshape/secret-hash/v1/` plus the key,
    /// 10,000 rounds), 8 bytes in hex.
    func testLegacyFingerprintIsReleaseZeroPointTwos() {
        let value = Array("sk_live_legacy_value".utf8)
        let legacy = value.withUnsafeBytes { SecretHasher.legacySecretHashes([$0], key: "team")[0] }
        let hashHex = SecretHasher.hex(withUnsafeBytes(of: legacy.bigEndian, Array.init))
        let oldHash = value.withUnsafeBytes { SecretHasher.pbkdf2([$0], salt: Array("keyshape/secret-hash/v1/team".utf8), iterations: 10_000)[0] }
        XCTAssertEqual(hashHex, SecretHasher.hex(oldHash))
        var input = Array("keyshape/fingerprint/v1\u{0}".utf8)
        input += Array("r".utf8) + [0] + Array("a.txt".utf8) + [0] + [] + [0] + Array(hashHex.utf8)
        XCTAssertEqual(SecretHasher.legacyFingerprint(rule: "r", location: location(.file(path: Array("a.txt".utf8))), legacyHash: legacy),
                       SecretHasher.hex(SecretHasher.sha256(input).prefix(8)))
    }
}
