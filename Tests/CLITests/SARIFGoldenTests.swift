import Foundation
import XCTest
import TestSupport

/// SARIF as code scanning reads it, compared with golden files in Fixtures/golden (run with
/// KEYSHAPE_UPDATE_GOLDEN=1 to rewrite them after a deliberate change), each validated
/// against the official schema: artifact URIs relative to the git work tree of the scanned
/// path, a category, value-free line hashes.
final class SARIFGoldenTests: XCTestCase {
    let secret = canary("sarif1")

    /// With a fixed hash key, so secretHash is the same on every run (without one each run
    /// has a random key); fingerprints hold no value and need none.
    var environment: [String: String] { keyedEnvironment() }

    func sarif(_ args: [String], cwd: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let out = TempDir()
        let path = out.path + "/r.sarif"
        let r = runProcess(Binary.url.path, args + ["--format", "sarif", "--output", path, "--no-progress"], cwd: cwd, env: environment)
        XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
        let text = out.read("r.sarif")
        assertNoFragment(of: secret, in: text + r.stderr, "sarif", file: file, line: line)
        assertValidSARIF([path], file: file, line: line)
        return JSONReport.object(text) ?? [:]
    }

    func run(_ object: [String: Any]) -> [String: Any] { (object["runs"] as? [[String: Any]])?.first ?? [:] }

    func uris(_ object: [String: Any]) -> [String] {
        (run(object)["results"] as? [[String: Any]] ?? []).map { r in
            let phys = (r["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any]
            return (phys["artifactLocation"] as! [String: String])["uri"]!
        }
    }

    func sourceRoot(_ object: [String: Any]) -> String? {
        ((run(object)["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: String])?["uri"]
    }

    /// The report with what differs between machines (the work tree's absolute path, the
    /// version) replaced, as sorted pretty JSON.
    func normalized(_ object: [String: Any]) throws -> String {
        var object = object
        var runs = object["runs"] as! [[String: Any]]
        var tool = runs[0]["tool"] as! [String: Any]
        var driver = tool["driver"] as! [String: Any]
        driver["version"] = "VERSION"; driver["semanticVersion"] = "VERSION"
        tool["driver"] = driver
        runs[0]["tool"] = tool
        if runs[0]["originalUriBaseIds"] != nil { runs[0]["originalUriBaseIds"] = ["%SRCROOT%": ["uri": "file:///SRCROOT/"]] }
        object["runs"] = runs
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func assertGolden(_ object: [String: Any], _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = Repo.path("Fixtures/golden/\(name)")
        let actual = try normalized(object)
        if ProcessInfo.processInfo.environment["KEYSHAPE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: Repo.path("Fixtures/golden"), withIntermediateDirectories: true)
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        XCTAssertEqual(actual, expected, "\(name) differs from its golden file", file: file, line: line)
    }

    func repository() -> GitFixture {
        let repo = GitFixture()
        repo.write("src/app.py", "import os\nTOKEN = \"\(secret)\"\n")
        repo.write("README.md", "nothing\n")
        repo.commit("add app")
        return repo
    }

    func testSubfolderScanInsideARepositoryReportsRepositoryRelativeURIs() throws {
        let repo = repository()
        let object = sarif(["scan", repo.path + "/src"])
        XCTAssertEqual(uris(object), ["src/app.py"], "not `app.py`: relative to the work tree, not the argument")
        let real = realpath(repo.path, nil).map { p in defer { free(p) }; return String(cString: p) } ?? repo.path
        XCTAssertEqual(sourceRoot(object), "file://" + real + "/")
        XCTAssertEqual((run(object)["automationDetails"] as? [String: String])?["id"], "keyshape/scan/")
        try assertGolden(object, "scan-subfolder.sarif")

        // An absolute file argument, and a relative one from inside the tree.
        XCTAssertEqual(uris(sarif(["scan", repo.path + "/src/app.py"])), ["src/app.py"])
        XCTAssertEqual(uris(sarif(["scan", "app.py"], cwd: repo.path + "/src")), ["src/app.py"])
        let categorized = sarif(["scan", repo.path, "--sarif-category", "secrets"])
        XCTAssertEqual((run(categorized)["automationDetails"] as? [String: String])?["id"], "secrets/")
    }

    func testOutsideAWorkTreeURIsAreRelativeToTheScannedRoot() {
        let tmp = TempDir()
        tmp.write("tree/a/b.txt", "TOKEN = \(secret)\n")
        XCTAssertEqual(uris(sarif(["scan", tmp.path + "/tree"])), ["a/b.txt"])
        XCTAssertEqual(uris(sarif(["scan", tmp.path + "/tree/a/b.txt"])), ["b.txt"], "never the absolute path")
    }

    func testHistorySARIF() throws {
        let repo = repository()
        let object = sarif(["history", repo.path])
        XCTAssertEqual(uris(object), ["src/app.py"])
        XCTAssertEqual((run(object)["automationDetails"] as? [String: String])?["id"], "keyshape/history/")
        let result = (run(object)["results"] as! [[String: Any]])[0]
        let region = ((result["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["region"] as! [String: Int]
        XCTAssertEqual(region, ["startLine": 2, "startColumn": 10, "endLine": 2, "endColumn": 10 + secret.count])
        try assertGolden(object, "history.sarif")
    }

    func testBinarySARIF() throws {
        let repo = GitFixture()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Repo.path("Fixtures/binaries/macho/keys-arm64-ios.o")))
        repo.writeBytes(Array("build/keys-arm64-ios.o".utf8), Array(bytes))
        let object = sarif(["scan", repo.path + "/build"])
        XCTAssertFalse(uris(object).isEmpty)
        XCTAssertTrue(uris(object).allSatisfy { $0 == "build/keys-arm64-ios.o" }, "\(uris(object))")
        for r in run(object)["results"] as! [[String: Any]] {
            let region = ((r["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["region"] as! [String: Int]
            XCTAssertEqual(Set(region.keys), ["byteOffset", "byteLength"])
        }
        try assertGolden(object, "binary.sarif")
    }

    func testAuditReportsATreeAndHistoryFindingOnce() {
        let repo = repository()
        let object = sarif(["audit", repo.path])
        XCTAssertEqual(uris(object), ["src/app.py"], "tree and history report the same secret at the same path")
        let result = (run(object)["results"] as! [[String: Any]])[0]
        XCTAssertEqual(((result["properties"] as? [String: Any])?["addedInCommits"] as? [String])?.count, 1)
        XCTAssertEqual((run(object)["automationDetails"] as? [String: String])?["id"], "keyshape/audit/")
    }

    func testTwoFolderArgumentsKeepTheirPrefixes() {
        let repo = GitFixture()
        for dir in ["a", "b"] { repo.write("\(dir)/same.env", "TOKEN = \(secret)\n") }
        repo.commit("two copies")
        let text = keyshape(["scan", "a", "b", "--no-progress", "--sort"], cwd: repo.path)
        XCTAssertEqual(text.stdout.split(separator: "\n").map { String($0.split(separator: ":")[0]) }, ["a/same.env", "b/same.env"], text.stderr)
        XCTAssertEqual(uris(sarif(["scan", "a", "b"], cwd: repo.path)), ["a/same.env", "b/same.env"])
        XCTAssertEqual(uris(sarif(["scan", repo.path + "/a", repo.path + "/b"])), ["a/same.env", "b/same.env"], "absolute arguments too")
    }
}
