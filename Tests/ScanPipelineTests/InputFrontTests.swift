import Foundation
import XCTest
import FileInputs
import MatchEngine
@testable import ScanPipeline
import TestSupport

/// The one front (`InputFront`): whether an input is an archive is one rule
/// (`ArchiveStage.claim`), and a self-extractor gives the same findings whichever byte source
/// holds it (a file read in chunks, bytes held whole).
final class InputFrontTests: XCTestCase {
    /// A self-extractor: a binary stub holding the test token, then a zip whose member holds
    /// the canary, stored (so the canary is in the self-extractor's own bytes too).
    static func selfExtractor(in dir: TempDir) throws -> (stub: [UInt8], zip: [UInt8]) {
        _ = dir.write("payload/app.env", "KEY=\(TestRules.canary)\n")
        sh(dir, "cd payload && zip -q -0 ../payload.zip app.env")
        let zip = Array(try Data(contentsOf: dir.url.appendingPathComponent("payload.zip")))
        let stub: [UInt8] = [0x7f, 0, 0, 0] + Array("stub token=\(TestRules.token)\n".utf8) + [UInt8](repeating: 0, count: 64)
        return (stub, zip)
    }

    func testArchiveOpeningIsDecidedByTheHeadAndTheTailAtHand() throws {
        let (stub, zip) = try Self.selfExtractor(in: TempDir())
        func opening(_ bytes: [UInt8], tail: Bool) -> ContainerOpening? {
            bytes.withUnsafeBytes { all in
                ArchiveStage().claim(head: all, tail: tail ? UnsafeRawBufferPointer(rebasing: all.suffix(65_557)) : nil, totalSize: all.count)
            }
        }
        XCTAssertEqual(opening(zip, tail: false), .members, "a zip from its first byte, by its magic number alone")
        XCTAssertEqual(opening(stub + zip, tail: true), .membersAndBytes, "a self-extractor, by its end record")
        XCTAssertNil(opening(stub + zip, tail: false), "without its end at hand (a stream, a member), bytes only")
        XCTAssertNil(opening(stub, tail: true))
        XCTAssertNil(opening(Array("plain text\n".utf8), tail: true))
        XCTAssertNil(opening(Array(zip.suffix(22)), tail: true), "an end record with nothing before it describes no member")
    }

    func testASelfExtractorGivesTheSameFindingsFromAFileAndFromMemory() throws {
        let dir = TempDir()
        let (stub, zip) = try Self.selfExtractor(in: dir)
        let bytes = stub + zip
        let path = dir.write("installer.bin", Data(bytes)).path
        var options = ScanOptions(jobs: 1)
        options.hashKey = "test"
        let front = InputFront(pipeline: BufferPipeline(ruleSet: TestRules.set(), options: options))

        func scan(_ input: InputBytes) -> (found: [String], problems: [String], outcome: InputFront.Outcome) {
            var found: [String] = [], problems: [String] = []
            let outcome = front.scan(input, path: "installer.bin", sink: InputFront.Sink(onFinding: { f in
                found.append("\(front.pipeline.rules[f.ruleIndex].id) \(f.steps) \(f.range) \(f.secretHash)")
            }, onFailure: { failure, _ in problems.append("failure \(failure.key)") }, onProblem: { members, message in
                problems.append("\(members): \(message)")
            }))
            return (found.sorted(), problems, outcome)
        }
        let fromFile = scan(.file(FileWalker().walk([path]).files[0]))
        let fromMemory = bytes.withUnsafeBytes { scan(.memory($0)) }
        // The member's canary; the same canary in the installer's own bytes (its zip stores
        // it), and the stub's token: the members and the bytes.
        XCTAssertEqual(fromFile.found.count, 3, "\(fromFile.found)")
        XCTAssertTrue(fromFile.found.contains { $0.hasPrefix("canary [") && $0.contains("archiveMember") }, "\(fromFile.found)")
        XCTAssertTrue(fromFile.found.contains { $0.hasPrefix("canary [] ") }, "\(fromFile.found)")
        XCTAssertTrue(fromFile.found.contains { $0.hasPrefix("token [] ") }, "\(fromFile.found)")
        XCTAssertEqual(fromMemory.found, fromFile.found)
        XCTAssertEqual(fromMemory.problems, fromFile.problems)
        XCTAssertEqual(fromFile.problems, [])
        for outcome in [fromFile.outcome, fromMemory.outcome] {
            XCTAssertEqual(outcome.opened, .membersAndBytes)
            XCTAssertTrue(outcome.binary)
            XCTAssertNil(outcome.readError)
        }
    }
}
