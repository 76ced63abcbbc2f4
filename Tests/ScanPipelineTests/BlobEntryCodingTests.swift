import XCTest
import ScanCore
import MatchEngine
@testable import ScanPipeline

/// The per-blob cache's record: every field history's attribution reads comes back as it
/// went in, and a record that does not read back whole is no record (the blob is scanned).
final class BlobEntryCodingTests: XCTestCase {
    func entry() -> BlobEntry {
        var plain = CachedFinding(ruleIndex: 1, secretHash: 0xfedc_ba98_7654_3210, line: 3, column: 9, endLine: 3, endColumn: 41,
                                  byteOffset: 1_234_567_890_123, byteLength: 32)
        plain.suppression = .inline
        plain.checksum = true
        var binary = CachedFinding(ruleIndex: 2, secretHash: 1, line: 0, column: 0, endLine: 0, endColumn: 0, byteOffset: 788, byteLength: 55)
        binary.binary = BinaryPlace(format: "mach-o", arch: "arm64", section: "__TEXT,__cstring", fileOffset: 788, virtualAddress: 0xdc)
        binary.steps = [.archiveMember(path: Array("Payload/App.app/\u{1b}[31mApp".utf8) + [0xff]),
                        .decoded(encoding: "base64", sourceRange: 10..<74)]
        binary.checksum = false
        var pending = CachedFinding(ruleIndex: 0, secretHash: 2, line: 1, column: 1, endLine: 2, endColumn: 1, byteOffset: 0, byteLength: 7)
        pending.pending = DeferredChecks(entries: [.init(isRuleList: true, index: 1, byteChecks: 2, bytePasses: 1),
                                                  .init(isRuleList: false, index: 0, byteChecks: 0, bytePasses: 0)],
                                        otherwise: .allowlisted, ruleCondition: true)
        pending.suppression = .allowlist
        return BlobEntry(state: .scanned, findings: [plain, binary, pending])
    }

    func coding() throws -> BlobEntryCoding { try XCTUnwrap(BlobEntryCoding(ruleSet: TestRules.set())) }

    func testARecordReadsBackAsItWasWritten() throws {
        let coding = try coding()
        let original = entry()
        let back = try XCTUnwrap(coding.decode(coding.encode(original)))
        XCTAssertEqual(back.state, .scanned)
        XCTAssertEqual(back.findings.count, original.findings.count)
        for (a, b) in zip(original.findings, back.findings) {
            XCTAssertEqual(a.ruleIndex, b.ruleIndex)
            XCTAssertEqual(a.secretHash, b.secretHash)
            XCTAssertEqual([a.line, a.column, a.endLine, a.endColumn], [b.line, b.column, b.endLine, b.endColumn])
            XCTAssertEqual(a.byteOffset, b.byteOffset)
            XCTAssertEqual(a.byteLength, b.byteLength)
            XCTAssertEqual(a.suppression, b.suppression)
            XCTAssertEqual(a.checksum, b.checksum)
            XCTAssertEqual(a.binary, b.binary)
            XCTAssertEqual(a.steps, b.steps)
            XCTAssertEqual(a.pending, b.pending)
        }
        XCTAssertEqual(coding.decode(coding.encode(BlobEntry(state: .scanned, findings: [])))?.findings.count, 0)
    }

    /// A named-credential finding keeps its confidence and provider label (a graded record);
    /// a record without any keeps the format earlier runs wrote, so their records still hold.
    func testANamedCredentialGradeReadsBackAndUngradedRecordsKeepTheirFormat() throws {
        let coding = try coding()
        var named = CachedFinding(ruleIndex: 1, secretHash: 3, line: 2, column: 5, endLine: 2, endColumn: 25, byteOffset: 40, byteLength: 20)
        named.confidence = .low
        named.provider = 41
        let plain = entry()
        let graded = coding.encode(BlobEntry(state: .scanned, findings: plain.findings + [named]))
        XCTAssertEqual(graded.first, 2)
        let back = try XCTUnwrap(coding.decode(graded))
        XCTAssertEqual(back.findings.map(\.confidence), [nil, nil, nil, .low])
        XCTAssertEqual(back.findings.map(\.provider), [nil, nil, nil, 41])
        XCTAssertEqual(coding.encode(plain).first, 1)
        XCTAssertEqual(try XCTUnwrap(coding.decode(coding.encode(plain))).findings.count, 3)
    }

    /// A blob that gave nothing is the empty record, which a store keeps as the id alone, and
    /// the empty record reads back as a blob scanned whole with nothing found.
    func testABlobWithNoFindingIsTheEmptyRecord() throws {
        let coding = try coding()
        XCTAssertEqual(coding.encode(BlobEntry(state: .scanned, findings: [])), [])
        let back = try XCTUnwrap(coding.decode([]))
        XCTAssertEqual(back.state, .scanned)
        XCTAssertTrue(back.findings.isEmpty)
        XCTAssertFalse(coding.encode(entry()).isEmpty, "a blob with findings keeps its full record")
    }

    /// Damage anywhere (a cut, a flipped byte, another version), or a rule this set lacks:
    /// nil, never a trap or a wrong finding.
    func testADamagedRecordOrAnUnknownRuleIsNoRecord() throws {
        let coding = try coding()
        let bytes = coding.encode(entry())
        for cut in 1..<bytes.count { XCTAssertNil(coding.decode(Array(bytes[0..<cut])), "cut at \(cut)") }
        var other = bytes
        other[0] = BlobEntryCoding.version + 1
        XCTAssertNil(coding.decode(other))
        XCTAssertNil(coding.decode(bytes + [0]), "trailing bytes")
        for i in bytes.indices {
            var flipped = bytes
            flipped[i] ^= 0xff
            _ = coding.decode(flipped)  // may read as another record; must not trap
        }
        // Rules are named by id: in a set that orders them otherwise, each finding keeps its rule.
        let original = TestRules.set()
        let reordered = RuleSet(rules: [original.rules[2], original.rules[0], original.rules[1]])
        let back = try XCTUnwrap(try XCTUnwrap(BlobEntryCoding(ruleSet: reordered)).decode(bytes))
        XCTAssertEqual(back.findings.map { reordered.rules[Int($0.ruleIndex)].id },
                       entry().findings.map { original.rules[Int($0.ruleIndex)].id })
        let renamed = RuleSet(rules: try RuleLoader.load(text: """
            [[rules]]
            id = "other"
            regex = '''x(y)'''
            keywords = ["x"]
            """, file: "t.toml").rules)
        XCTAssertNil(try XCTUnwrap(BlobEntryCoding(ruleSet: renamed)).decode(bytes), "rule ids this set lacks")
    }
}
