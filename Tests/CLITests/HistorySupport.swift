import Foundation
import XCTest
import TestSupport

/// A throwaway git repository built by test code (no committed `.git` folders), driven
/// through the real git binary with no system or global config.
final class GitFixture {
    let dir = TempDir()
    let path: String
    private var tick = 0

    static let gitPath = TestGit.path

    init(bare: Bool = false, name: String = "repo", initialize: Bool = true) {
        path = dir.path + "/" + name
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if initialize {
            git(["init", "-q", "-b", "main"] + (bare ? ["--bare"] : []))
            if !bare { configure() }
        }
    }

    func configure() {
        git(["config", "user.name", "Ada Tester"])
        git(["config", "user.email", "ada@example.com"])
        git(["config", "commit.gpgsign", "false"])
    }

    /// Isolated environment for the test's own git commands, with advancing fixed dates.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = TestGit.environment(["GIT_TERMINAL_PROMPT": "0"])
        tick += 1
        let date = "\(1_700_000_000 + tick * 60) +0000"
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
        for (k, v) in extra { env[k] = v }
        return env
    }

    @discardableResult
    func git(_ args: [String], env: [String: String] = [:], expect: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = runProcess(GitFixture.gitPath, ["-C", path] + args, env: environment(env))
        if let expect, r.status != expect {
            XCTFail("git \(args.joined(separator: " ")) exited \(r.status): \(r.stderr)", file: file, line: line)
        }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ name: String, _ text: String) { writeBytes(Array(name.utf8), Array(text.utf8)) }

    /// A file whose name is any bytes (non-UTF-8, newlines).
    func writeBytes(_ name: [UInt8], _ bytes: [UInt8]) {
        var full = Array(path.utf8) + [0x2F] + name
        if let slash = name.lastIndex(of: 0x2F) {
            let parent = String(decoding: Array(path.utf8) + [0x2F] + name[..<slash], as: UTF8.self)
            try! FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        full.append(0)
        let fd = full.withUnsafeBufferPointer { p in p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: full.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        precondition(fd >= 0, "cannot create fixture file")
        _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func remove(_ name: String) { try! FileManager.default.removeItem(atPath: path + "/" + name) }

    /// Stages everything and commits; the new commit's id.
    @discardableResult
    func commit(_ message: String, all: Bool = true) -> String {
        if all { git(["add", "-A"]) }
        git(["commit", "-q", "--allow-empty", "-m", message])
        return rev("HEAD")
    }

    func rev(_ r: String) -> String { git(["rev-parse", "--verify", r]) }
}

/// A canary secret built at run time (matched by the builtin `keyshape-canary` rule), so
/// no source file holds a literal.
func canary(_ tag: String) -> String { "TEST_SECRET_" + "MUST_NEVER_LEAK_" + tag }

struct HistoryFinding {
    var rule: String
    var kind: String
    var commit: String?
    var blob: String?
    var path: String?
    var line: Int?
    var column: Int?
    var byteOffset: Int?
    var author: String?
    var email: String?
    var date: String?
    var fingerprint: String
}

struct ParsedReport {
    var run: Run
    var findings: [HistoryFinding]
    var errors: [[String: String]]
}

/// Runs keyshape with `--format json` and parses the report; asserts no canary leaked.
func keyshapeJSON(_ args: [String], secrets: [String], env: [String: String]? = nil, file: StaticString = #filePath, line: UInt = #line) -> ParsedReport {
    let r = keyshape(args + ["--format", "json", "--no-progress"], env: env)
    for s in secrets {
        assertNoFragment(of: s, in: r.stdout, "stdout of \(args)", file: file, line: line)
        assertNoFragment(of: s, in: r.stderr, "stderr of \(args)", file: file, line: line)
    }
    guard let object = r.report else {
        XCTFail("no JSON report (status \(r.status)): \(r.stderr)", file: file, line: line)
        return ParsedReport(run: r, findings: [], errors: [])
    }
    let findings = (object["findings"] as? [[String: Any]] ?? []).map { f -> HistoryFinding in
        let l = f["location"] as? [String: Any] ?? [:]
        return HistoryFinding(rule: f["rule"] as? String ?? "", kind: l["kind"] as? String ?? "", commit: l["commit"] as? String,
                              blob: l["blob"] as? String, path: l["path"] as? String, line: l["line"] as? Int, column: l["column"] as? Int,
                              byteOffset: l["byteOffset"] as? Int, author: l["author"] as? String, email: l["email"] as? String,
                              date: l["date"] as? String, fingerprint: f["fingerprint"] as? String ?? "")
    }
    return ParsedReport(run: r, findings: findings, errors: object["errors"] as? [[String: String]] ?? [])
}

/// The findings as comparable `commit path:line` strings (blob kind: `blob <id>`).
func places(_ findings: [HistoryFinding]) -> [String] {
    findings.map { f in
        f.kind == "blob" ? "blob \(f.blob ?? "")" : "\(f.commit ?? f.kind) \(f.path ?? ""):\(f.line.map(String.init) ?? "-")"
    }.sorted()
}
