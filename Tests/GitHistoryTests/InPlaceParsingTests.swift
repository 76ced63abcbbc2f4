import Foundation
import XCTest
@testable import GitHistory
import TestSupport

/// The parsers that read git's output in place (no array per line or per field) give what
/// the array-based versions they replaced gave, on seeded random lines built from the
/// pieces that matter (spaces, ids, short and bad ids, the type and `missing` words,
/// numbers, signs): the references below are those versions, kept as they were.
final class InPlaceParsingTests: XCTestCase {
    typealias Seeded = SeededGenerator

    static func randomHex(_ digits: Int, _ rng: inout Seeded) -> [UInt8] {
        let alphabet = Array("0123456789abcdefABCDEF".utf8)
        return (0..<digits).map { _ in alphabet[rng.below(alphabet.count)] }
    }

    static func piece(_ rng: inout Seeded) -> [UInt8] {
        switch rng.below(12) {
        case 0, 1: return randomHex(40, &rng)
        case 2: return randomHex(64, &rng)
        case 3: return randomHex(39, &rng)
        case 4: return Array("blob".utf8)
        case 5: return Array("missing".utf8)
        case 6: return Array("ambiguous".utf8)
        case 7: return Array(String(rng.below(1 << 20)).utf8)
        case 8: return Array("-1".utf8)
        case 9: return Array("+12".utf8)
        case 10: return Array("commit".utf8)
        default: return Array("zz".utf8)
        }
    }

    /// A line of pieces with one or more spaces (and sometimes spaces at either end) between.
    static func line(_ rng: inout Seeded) -> [UInt8] {
        var out: [UInt8] = rng.below(5) == 0 ? [0x20] : []
        for k in 0..<rng.below(6) {
            if k > 0 { out += [UInt8](repeating: 0x20, count: 1 + (rng.below(4) == 0 ? 1 : 0)) }
            out += piece(&rng)
        }
        if rng.below(5) == 0 { out.append(0x20) }
        return out
    }

    /// `CatFileReader`'s header parse as it was: the line split into an array of fields.
    static func referenceHeader(_ header: [UInt8]) -> CatFileReader.Header {
        let fields = header.split(separator: 0x20)
        guard fields.count >= 2, ObjectID(hexBytes: fields[0]) != nil else { return .bad }
        if fields[1].elementsEqual("missing".utf8) || fields[1].elementsEqual("ambiguous".utf8) { return .missing }
        guard fields.count == 3, let size = Int(String(decoding: fields[2], as: UTF8.self)), size >= 0 else { return .bad }
        return .object(type: String(decoding: fields[1], as: UTF8.self), size: size)
    }

    /// `DiffTreeParser`'s id line as it was.
    static func referenceIDs(_ ids: [UInt8]) -> (ObjectID, [ObjectID])? {
        let parts = ids.split(separator: 0x20)
        guard let first = parts.first, let id = ObjectID(hexBytes: first) else { return nil }
        return (id, parts.dropFirst().compactMap { ObjectID(hexBytes: $0) })
    }

    func testCatFileHeaderParsesAsTheSplitDid() {
        var rng = Seeded(seed: 14)
        var kinds = [String: Int]()
        for _ in 0..<20_000 {
            let l = InPlaceParsingTests.line(&rng)
            let expected = InPlaceParsingTests.referenceHeader(l)
            let got = l.withUnsafeBytes { CatFileReader.header($0) }
            XCTAssertEqual(got, expected, "line \(String(decoding: l, as: UTF8.self))")
            switch expected {
            case .object: kinds["object", default: 0] += 1
            case .missing: kinds["missing", default: 0] += 1
            case .bad: kinds["bad", default: 0] += 1
            }
        }
        // The seeded lines reach every outcome, so the comparison means something.
        XCTAssertGreaterThan(kinds["object", default: 0], 50)
        XCTAssertGreaterThan(kinds["missing", default: 0], 50)
        XCTAssertGreaterThan(kinds["bad", default: 0], 50)
        // git's own lines.
        let id = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        XCTAssertEqual(Array("\(id) blob 12".utf8).withUnsafeBytes { CatFileReader.header($0) }, .object(type: "blob", size: 12))
        XCTAssertEqual(Array("\(id) missing".utf8).withUnsafeBytes { CatFileReader.header($0) }, .missing)
        XCTAssertEqual(Array("\(id) blob 12 x".utf8).withUnsafeBytes { CatFileReader.header($0) }, .bad)
        XCTAssertEqual(Array("\(id) blob -1".utf8).withUnsafeBytes { CatFileReader.header($0) }, .bad)
    }

    func testCommitAndParentsParseAsTheSplitDid() {
        var rng = Seeded(seed: 1406)
        var withParents = 0, rejected = 0
        for _ in 0..<20_000 {
            let l = InPlaceParsingTests.line(&rng)
            let expected = InPlaceParsingTests.referenceIDs(l)
            let got = l.withUnsafeBytes { DiffTreeParser.commitAndParents($0) }
            XCTAssertEqual(got?.0, expected?.0, "line \(String(decoding: l, as: UTF8.self))")
            XCTAssertEqual(got?.1, expected?.1, "line \(String(decoding: l, as: UTF8.self))")
            if let expected, !expected.1.isEmpty { withParents += 1 }
            if expected == nil { rejected += 1 }
        }
        XCTAssertGreaterThan(withParents, 50)
        XCTAssertGreaterThan(rejected, 50)
    }

    func testHexMatchesTheDigitsParsed() {
        var rng = Seeded(seed: 41)
        for k in 0..<2_000 {
            let digits = InPlaceParsingTests.randomHex(k % 2 == 0 ? 40 : 64, &rng)
            let id = ObjectID(hexBytes: digits)!
            XCTAssertEqual(id.hex, String(decoding: digits, as: UTF8.self).lowercased())
            var appended: [UInt8] = []
            id.appendHex(to: &appended)
            XCTAssertEqual(id.hex, String(decoding: appended, as: UTF8.self))
        }
    }
}
