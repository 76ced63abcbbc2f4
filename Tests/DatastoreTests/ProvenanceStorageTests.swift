@testable import Datastore
import Foundation
import ScanCore
import ScanReport
import XCTest

/// Every provenance kind the pipeline makes survives the datastore exactly, and a JSONL
/// report read back by `import` gives the same report fields.
final class ProvenanceStorageTests: XCTestCase {
    static func samples() -> [Finding] {
        let blob = Provenance.CommitBlob(commit: String(repeating: "a", count: 40), author: "Ada", email: "ada@example.com",
                                         date: "2021-03-02T10:00:00+00:00", blob: String(repeating: "b", count: 40), path: Array("src/app.swift".utf8))
        let provenances: [Provenance] = [
            .file(path: Array("plain.txt".utf8)),
            .file(path: [0x62, 0x61, 0x64, 0xff, 0x3b, 0x3a, 0x0a]),  // not UTF-8, and the coding's separators
            .stdin(name: "-"),
            .staged(path: Array("config/.env".utf8)),
            .commitBlob(blob),
            .unreachableBlob(blob: String(repeating: "c", count: 40)),
            .commitText(commit: blob.commit, field: .message),
            .commitText(commit: blob.commit, field: .tag(name: "v1.0")),
            .commitText(commit: blob.commit, field: .note(notesRef: "refs/notes/commits")),
            .archiveMember(parent: .archiveMember(parent: .file(path: Array("dist/App.ipa".utf8)), member: Array("Payload/lib.zip".utf8)),
                           member: Array("inner.properties".utf8)),
            .decoded(parent: .archiveMember(parent: .commitBlob(blob), member: Array("a.json".utf8)), encoding: "base64", sourceRange: 10..<90),
        ]
        return provenances.enumerated().map { n, p in
            var l = Location(p, byteOffset: 100 + n, byteLength: 20)
            if n == 1 {
                l.binary = BinaryPlace(format: "elf", arch: "x86_64", section: ".rodata", fileOffset: 4096 + n, virtualAddress: 0x401000)
            } else {
                l.setText(line: n + 1, column: 3, endLine: n + 1, endColumn: 23)
            }
            return Finding(rule: "r", description: "d", fingerprint: String(format: "%016x", n), secretHash: "00aa00aa00aa00aa", location: l)
        }
    }

    func testEveryProvenanceRoundTripsThroughTheDatastore() throws {
        let dir = NSTemporaryDirectory() + "keyshape-provenance-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Datastore(path: dir + "/d.db", create: true)
        let run = try store.beginRun(RunStart(command: "scan", arguments: [], keyshapeVersion: "0", rulePack: "1", rulesHash: "h",
                                              repository: RepositoryRef(root: "/r")))
        let findings = Self.samples()
        try store.record(findings, run: run)
        try store.record(findings, run: run)
        let stored = try store.findings().map(\.finding)
        XCTAssertEqual(stored.count, findings.count, "each provenance is its own place")
        XCTAssertEqual(Set(stored), Set(findings))
        for p in findings.map(\.location.provenance) {
            XCTAssertEqual(ProvenanceCoding.decode(ProvenanceCoding.encode(p)), p)
        }
    }

    func testAJSONLReportReadBackGivesTheSameReport() throws {
        // Paths as reports show them (UTF-8); decoded source ranges are not in a report.
        let findings = Self.samples().filter { $0.location.path.map { !$0.contains("\\x") } ?? true }
        let jsonl = JSONReporter.reportLines(ScanResult(findings: findings))
        let read = try JSONLReport.parse(Data(jsonl.utf8))
        XCTAssertEqual(read.count, findings.count)
        XCTAssertEqual(JSONReporter.reportLines(ScanResult(findings: read)), jsonl)
    }
}
