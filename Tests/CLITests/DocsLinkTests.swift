import Foundation
import TestSupport
import XCTest

/// The manual: README.md stays a front page (at most 16,000 bytes), docs/ holds the rest, and
/// every relative link among README.md, docs/*.md and Sources/*/README.md resolves, anchors
/// included (MarkdownLinkChecker).
final class DocsLinkTests: XCTestCase {
    /// README.md, docs/*.md and each Sources/TARGET/README.md, relative to the repository root.
    func manualFiles() throws -> [String] {
        let fm = FileManager.default
        var files = ["README.md"]
        files += try fm.contentsOfDirectory(atPath: Repo.path("docs")).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for target in try fm.contentsOfDirectory(atPath: Repo.path("Sources")).sorted()
        where fm.fileExists(atPath: Repo.path("Sources/\(target)/README.md")) {
            files.append("Sources/\(target)/README.md")
        }
        return files
    }

    func testEveryRelativeLinkResolves() throws {
        let files = try manualFiles()
        XCTAssertTrue(files.contains("Sources/CredentialStore/README.md") && files.contains("Sources/ProviderClient/README.md"), "\(files)")
        let problems = try MarkdownLinkChecker(root: Repo.root).problems(in: files)
        XCTAssertEqual(problems, [], problems.map(\.description).joined(separator: "\n"))
    }

    func testReadmeIsAFrontPage() throws {
        let size = try Data(contentsOf: Repo.root.appendingPathComponent("README.md")).count
        XCTAssertLessThanOrEqual(size, 16_000, "README.md is \(size) bytes; move detail into docs/")
    }

    /// Each part of the manual the README promises is a page of docs/, linked from its index.
    func testDocsHasEveryPart() throws {
        let index = try String(contentsOfFile: Repo.path("docs/README.md"), encoding: .utf8)
        for page in ["usage", "configuration", "rules", "output", "ci", "datastore", "threat-model", "limits", "benchmarks", "history"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Repo.path("docs/\(page).md")), "docs/\(page).md")
            XCTAssertTrue(index.contains("(\(page).md)"), "docs/README.md links \(page).md")
        }
    }

    /// The options table of docs/usage.md is one table: no paragraph or blank line cuts it
    /// (the README's was cut in two by the progress line's paragraph).
    func testTheOptionsTableIsOnePiece() throws {
        let usage = try String(contentsOfFile: Repo.path("docs/usage.md"), encoding: .utf8)
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(of: "| option | meaning |") else { return XCTFail("docs/usage.md has no options table") }
        let table = lines[header...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        for flag in ["`--format ", "`--progress`", "`--max-file-size SIZE`", "`--datastore DB`"] {
            XCTAssertTrue(table.contains(flag), "the options table holds \(flag)")
        }
    }

    /// The checker itself: a missing file, a missing heading and a link to a heading of the
    /// same file are told apart; links inside code and with a scheme are not followed.
    func testTheCheckerFindsBrokenLinksAndAnchors() throws {
        let tmp = TempDir()
        tmp.write("docs/a.md", """
        # Page A

        ## What `scan` reads, and why?

        [ok](b.md) [ok](b.md#second-part) [ok](#what-scan-reads-and-why) [ok](../README.md)
        [web](https://example.invalid/x.md) `[code](missing.md)` [ok](b.md#repeat-1)

        ```
        [fenced](missing.md)
        ```

        [bad](missing.md)
        [bad](b.md#no-such-heading)
        [bad](#what-scan-reads)
        """)
        tmp.write("docs/b.md", "# B\n\n## Second part\n\n## Repeat\n\n## Repeat\n")
        tmp.write("README.md", "[bad](docs/c.md)\n")
        let problems = try MarkdownLinkChecker(root: tmp.url).problems(in: ["docs/a.md", "docs/b.md", "README.md"])
        XCTAssertEqual(problems.map { "\($0.file):\($0.line) \($0.target)" },
                       ["docs/a.md:12 missing.md", "docs/a.md:13 b.md#no-such-heading", "docs/a.md:14 #what-scan-reads", "README.md:1 docs/c.md"])
        XCTAssertEqual(MarkdownLinkChecker.slug("Who may set what"), "who-may-set-what")
        XCTAssertEqual(MarkdownLinkChecker.slug("An auditor's full-history sweep"), "an-auditors-full-history-sweep")
        XCTAssertEqual(MarkdownLinkChecker.slug("Server side: pre-receive"), "server-side-pre-receive")
    }
}
