import Archives
import Foundation
import XCTest
import FileInputs
import MatchEngine
@testable import ScanPipeline
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The container-stage registry (`ContainerStages`): a stage registered with a front is asked
/// about every input, whichever source holds it (bytes held whole, a file, an archive's
/// member), and what it hands back through `InputFront.scanMember` is scanned as any input,
/// with its member provenance, containers inside it opened again.
final class ContainerStageTests: XCTestCase {
    /// A container format of this test only: `KSBOX\n`, then per member its name, a newline,
    /// its length in decimal, a newline and its bytes.
    final class BoxStage: ContainerStage {
        static let magic = Array("KSBOX\n".utf8)
        var name: String { "test box" }
        /// Every `open`: the input's path and depth.
        private(set) var opened: [(path: String?, depth: Int)] = []

        static func box(_ members: [(String, [UInt8])]) -> [UInt8] {
            members.reduce(magic) { $0 + Array("\($1.0)\n\($1.1.count)\n".utf8) + $1.1 }
        }

        func claim(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int) -> ContainerOpening? {
            head.starts(with: BoxStage.magic) ? .members : nil
        }

        func open(_ input: ContainerInput, front: InputFront, sink: InputFront.Sink) -> Int {
            opened.append((input.path, input.depth))
            var bytes = BoxStage.read(input.source)[...]
            bytes.removeFirst(BoxStage.magic.count)
            var scanned = 0
            func line() -> String? {
                guard let end = bytes.firstIndex(of: 0x0a) else { return nil }
                defer { bytes = bytes[(end + 1)...] }
                return String(decoding: bytes[..<end], as: UTF8.self)
            }
            while let name = line(), let count = line().flatMap({ Int($0) }), count <= bytes.count {
                let member = Array(bytes.prefix(count))
                bytes = bytes.dropFirst(count)
                _ = member.withUnsafeBytes {
                    front.scanMember(.memory($0), names: [Array(name.utf8)], path: input.path, depth: input.depth, reader: self, sink: sink)
                }
                scanned += count
            }
            if !bytes.isEmpty { sink.onProblem([], "box ends inside a member") }
            return scanned
        }

        /// All of a container's bytes, whichever source the front opened it from.
        static func read(_ source: ArchiveSource) -> [UInt8] {
            var out: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 4096)
            func drain(_ next: (UnsafeMutableRawBufferPointer) -> Int) {
                while true {
                    let got = block.withUnsafeMutableBytes { next($0) }
                    if got <= 0 { return }
                    out += block[0..<got]
                }
            }
            switch source {
            case .bytes(let bytes): return bytes
            case .buffer(let buffer): return Array(buffer)
            case .fileDescriptor(let fd):
                drain { buffer in
                    let got = pread(fd, buffer.baseAddress, buffer.count, off_t(out.count))
                    return got
                }
            case .member(let member): drain { member.read(into: $0) }
            case .stream(let fill): drain(fill)
            }
            return out
        }
    }

    struct Scanned {
        var found: [String] = []
        var problems: [String] = []
        var outcome = InputFront.Outcome()
    }

    static func scan(_ input: InputBytes, path: String, with front: InputFront) -> Scanned {
        var scanned = Scanned()
        scanned.outcome = front.scan(input, path: path, sink: InputFront.Sink(onFinding: { f in
            let steps = f.steps.map { step -> String in
                guard case .archiveMember(let name) = step else { return "\(step)" }
                return String(decoding: name, as: UTF8.self)
            }
            scanned.found.append("\(front.pipeline.rules[f.ruleIndex].id) [\(steps.joined(separator: "!"))] \(f.range)")
        }, onFailure: { failure, place in scanned.problems.append("failure \(failure.key) \(place)") },
           onProblem: { members, message in scanned.problems.append("\(members): \(message)") }))
        scanned.found.sort()
        return scanned
    }

    static func front(_ stages: [any ContainerStage]) -> InputFront {
        var options = ScanOptions(jobs: 1)
        options.hashKey = "test"
        return InputFront(pipeline: BufferPipeline(ruleSet: TestRules.set(), options: options), containers: ContainerStages(stages))
    }

    /// A zip (stored) holding `name` with `text`.
    static func zip(_ name: String, _ text: String, in dir: TempDir) throws -> [UInt8] {
        _ = dir.write("zip-\(name)/\(name)", text)
        sh(dir, "cd zip-\(name) && zip -q -0 ../\(name).zip \(name)")
        return Array(try Data(contentsOf: dir.url.appendingPathComponent("\(name).zip")))
    }

    func testARegisteredStageIsAskedAndItsMembersAreScannedAsInputsWithTheirMemberProvenance() throws {
        let dir = TempDir()
        // A member that is a zip (handed back as bytes, the front opens it), and a text member
        // (last, so no zip's end record ends the box: without the stage it is no self-extractor).
        let box = BoxStage.box([("inner.zip", try Self.zip("deep.env", "token=\(TestRules.token)\n", in: dir)),
                                ("conf/app.env", Array("KEY=\(TestRules.canary)\n".utf8))])
        let stage = BoxStage()
        let front = Self.front([stage] + ContainerStages.standard.stages)

        let fromMemory = box.withUnsafeBytes { Self.scan(.memory($0), path: "bundle.box", with: front) }
        XCTAssertEqual(fromMemory.found, ["canary [conf/app.env] 4..<37", "token [inner.zip!deep.env] 6..<34"])
        XCTAssertEqual(fromMemory.problems, [])
        XCTAssertEqual(fromMemory.outcome.opened, .members)
        XCTAssertTrue(fromMemory.outcome.openedBy === stage)
        XCTAssertEqual(stage.opened.map(\.path), ["bundle.box"])
        XCTAssertEqual(stage.opened.map(\.depth), [1])
        XCTAssertEqual(front.containerDepth, 0, "the depth is restored once the container is read")

        // The same box as a file: claimed from its first chunk, opened from its descriptor.
        let path = dir.write("bundle.box", Data(box)).path
        let fromFile = Self.scan(.file(FileWalker().walk([path]).files[0]), path: "bundle.box", with: front)
        XCTAssertEqual(fromFile.found, fromMemory.found)
        XCTAssertEqual(fromFile.problems, [])
        XCTAssertEqual(stage.opened.count, 2)

        // Without the stage, the box is a binary file: its bytes are the input, no member step.
        let plain = box.withUnsafeBytes { Self.scan(.memory($0), path: "bundle.box", with: Self.front(ContainerStages.standard.stages)) }
        XCTAssertNil(plain.outcome.opened)
        XCTAssertTrue(plain.found.contains { $0.hasPrefix("canary [] ") }, "\(plain.found)")
    }

    func testAStageIsAskedAboutAnArchivesMembersAndOpensThemOneLevelDown() throws {
        let dir = TempDir()
        let box = BoxStage.box([("app.env", Array("KEY=\(TestRules.canary)\n".utf8))])
        _ = dir.write("payload/bundle.box", Data(box))
        sh(dir, "cd payload && zip -q -0 ../payload.zip bundle.box")
        let zip = Array(try Data(contentsOf: dir.url.appendingPathComponent("payload.zip")))
        let stage = BoxStage()
        let front = Self.front(ContainerStages.standard.stages + [stage])

        let scanned = zip.withUnsafeBytes { Self.scan(.memory($0), path: "payload.zip", with: front) }
        // The archive stage reads the zip; its member is claimed by the box stage, which the
        // front opens from the member's stream, one level down, at the member's path.
        XCTAssertEqual(scanned.found, ["canary [bundle.box!app.env] 4..<37"])
        XCTAssertEqual(scanned.problems, [])
        XCTAssertEqual(stage.opened.map(\.path), ["payload.zip!bundle.box"])
        XCTAssertEqual(stage.opened.map(\.depth), [2])
        XCTAssertTrue(scanned.outcome.openedBy is ArchiveStage)
    }
}
