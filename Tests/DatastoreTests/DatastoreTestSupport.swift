import Datastore
import Foundation
import TestSupport
import XCTest

/// What the datastore's command-line tests share: the built executable, temporary folders,
/// git repositories built at run time, and a byte-level check for secret fragments.
/// A JSONL report's lines, sorted.
func sortedReportLines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).sorted() }

enum CLI {
    static let root = Checkout.root
    static let binary: URL = BuiltProduct.url("keyshape") ?? root.appendingPathComponent(".build/debug/keyshape")

    typealias Run = ProcessRun

    /// Runs keyshape with no stdin and an isolated git environment; never through a shell.
    @discardableResult
    static func keyshape(_ args: [String], cwd: String? = nil, timeout: TimeInterval = 300, hashKey: String? = "datastore-tests") -> Run {
        try! runProcess(binary, args, cwd: cwd, environment: environment(hashKey: hashKey), timeout: timeout)
    }

    /// With a fixed hash key: these tests compare a run into a datastore with one without, and
    /// without a key of the user's each would hash (and, into a datastore, fingerprint) under
    /// a key of its own. `DatastoreKeyTests` runs without one.
    static func environment(hashKey: String? = "datastore-tests") -> [String: String] {
        var extra = ["NO_COLOR": "1"]
        if let hashKey { extra["KEYSHAPE_HASH_KEY"] = hashKey }
        return TestGit.environment(extra)
    }

    @discardableResult
    static func git(_ repo: String, _ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        let child = try! TestGit.outcome(repo, args, input: stdin, environment: [
            "NO_COLOR": "1",
            "GIT_AUTHOR_NAME": "Ada Tester", "GIT_AUTHOR_EMAIL": "ada@example.com",
            "GIT_COMMITTER_NAME": "Ada Tester", "GIT_COMMITTER_EMAIL": "ada@example.com",
        ])
        XCTAssertEqual(child.status, 0, "git \(args.first ?? "")", file: file, line: line)
        return child.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Test secrets of one shape, matched by `TestRules.toml`'s rule (not the builtin pack, so
/// the tests say exactly what is found). Random per run: nothing committed can leak them.
enum TestSecrets {
    static let rule = """
    [[rules]]
    id = "datastore-test-token"
    description = "Datastore test token"
    regex = '''\\b(DSTEST_[A-Z0-9]{24})\\b'''
    secretGroup = 1
    keywords = ["dstest_"]
    """

    static func make() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "DSTEST_" + String((0..<24).map { _ in alphabet.randomElement()! })
    }

    /// Fails when `data` holds `secret` or any 8-byte run of it.
    static func assertNoFragment(of secret: String, in data: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let s = Array(secret.utf8)
        let bytes = [UInt8](data)
        guard s.count >= 8, bytes.count >= 8 else { return }
        var fragments = Set<[UInt8]>()
        for start in 0...(s.count - 8) { fragments.insert(Array(s[start..<start + 8])) }
        for start in 0...(bytes.count - 8) where fragments.contains(Array(bytes[start..<start + 8])) {
            XCTFail("\(what) holds an 8-byte fragment of a secret (at byte \(start))", file: file, line: line)
            return
        }
    }
}

/// A git repository of `commits` commits, each adding a file with `perCommit` new test
/// secrets, written in one `git fast-import` (seconds, where a commit per `git commit` took a minute).
struct HistoryFixture {
    let path: String
    var secrets: [String] = []

    init(in scratch: TempDir, name: String = "repo", commits: Int, perCommit: Int, startCommit: Int = 0) {
        path = scratch.path + "/" + name
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        CLI.git(path, ["init", "-q", "-b", "main"])
        secrets = HistoryFixture.append(to: path, commits: commits, perCommit: perCommit, from: startCommit)
    }

    /// Adds commits on `main` (after its tip, when there is one); the secrets they add.
    static func append(to path: String, commits: Int, perCommit: Int, from first: Int) -> [String] {
        var stream = ""
        var secrets: [String] = []
        for n in first..<(first + commits) {
            var content = "// file \(n)\n"
            for _ in 0..<perCommit {
                let s = TestSecrets.make()
                secrets.append(s)
                content += "let token = \"\(s)\"\n"
            }
            let date = 1_600_000_000 + n * 86_400 * 3
            stream += "commit refs/heads/main\n"
            stream += "committer Ada Tester <ada@example.com> \(date) +0000\n"
            let message = "add file \(n)\n"
            stream += "data \(message.utf8.count)\n\(message)"
            if n == first {
                if n > 0 { stream += "from refs/heads/main^0\n" }
            }
            stream += "M 100644 inline src/file\(n).swift\n"
            stream += "data \(content.utf8.count)\n\(content)\n"
        }
        CLI.git(path, ["fast-import", "--quiet"], stdin: Data(stream.utf8))
        CLI.git(path, ["reset", "-q", "--hard", "main"])
        return secrets
    }
}

/// What the history tests of the datastore set up each time: a scratch folder with the test
/// rule, a repository of `HistoryFixture` commits, a datastore path, and the command line of
/// a history run of that repository with only the test rule.
struct HistoryCase {
    let scratch = TempDir()
    let rules: String
    var repo: HistoryFixture
    let db: String

    init(commits: Int, perCommit: Int, db name: String = "d.db") {
        scratch.write("rules.toml", TestSecrets.rule)
        rules = scratch.path + "/rules.toml"
        repo = HistoryFixture(in: scratch, commits: commits, perCommit: perCommit)
        db = scratch.path + "/" + name
    }

    /// `keyshape history REPO` with the test rule alone and no progress line, then `extra`.
    func args(_ extra: [String] = []) -> [String] {
        ["history", repo.path, "--rules", rules, "--no-builtin-rules", "--no-progress"] + extra
    }

    func runs() throws -> [RunInfo] { try Datastore(readingAt: db).runs() }
}

extension CLI {
    /// Starts keyshape with no output kept, for a test that kills it.
    static func start(_ args: [String], extraEnvironment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        process.environment = environment().merging(extraEnvironment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// kill -9, then waits for the process to be gone.
    static func kill9(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
