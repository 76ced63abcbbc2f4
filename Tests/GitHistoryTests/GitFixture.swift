import Foundation
import TestSupport
import XCTest
@testable import GitHistory

/// A throwaway repository made with the git binary, no system or global config.
final class Fixture {
    private let dir = TempDir(prefix: "keyshape-git")
    var root: String { dir.path }
    let path: String
    private var tick = 0

    static let git = TestGit.path

    init(bare: Bool = false) {
        path = dir.path + "/repo"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        run(["init", "-q", "-b", "main"] + (bare ? ["--bare"] : []))
        if !bare {
            run(["config", "user.name", "Ada"])
            run(["config", "user.email", "ada@example.com"])
        }
    }

    @discardableResult
    func run(_ args: [String], stdin: String? = nil) -> String {
        var env = TestGit.environment()
        tick += 1
        env["GIT_AUTHOR_DATE"] = "\(1_700_000_000 + tick) +0000"
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"]
        let child = try! runChild(URL(fileURLWithPath: Fixture.git), ["-C", path] + args, environment: env,
                                  input: stdin.map { Data($0.utf8) }, timeout: 120)
        XCTAssertEqual(child.status, 0, "git \(args): \(child.stderrText)")
        XCTAssertFalse(child.timedOut, "git \(args) timed out")
        return child.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ name: [UInt8], _ text: String) {
        if let slash = name.lastIndex(of: 0x2F) {
            try! FileManager.default.createDirectory(atPath: path + "/" + String(decoding: name[..<slash], as: UTF8.self), withIntermediateDirectories: true)
        }
        let full = Array(path.utf8) + [0x2F] + name + [0]
        let fd = full.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: full.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        precondition(fd >= 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func write(_ name: String, _ text: String) { write(Array(name.utf8), text) }

    @discardableResult
    func commit(_ message: String) -> ObjectID {
        run(["add", "-A"])
        run(["commit", "-q", "--allow-empty", "-m", message])
        return rev("HEAD")
    }

    func rev(_ r: String) -> ObjectID { ObjectID(run(["rev-parse", "--verify", r]))! }

    /// The blobs at the top of a commit's tree, by name (one git call for all of them).
    func blobs(_ commit: String = "HEAD") -> [String: ObjectID] {
        var byName: [String: ObjectID] = [:]
        for line in run(["ls-tree", commit]).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            byName[String(parts[1])] = ObjectID(String(parts[0].split(separator: " ")[2]))
        }
        return byName
    }

    func git() throws -> Git { try Git(repository: path) }
}
