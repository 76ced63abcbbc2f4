import Foundation
import XCTest
import TestSupport

/// `keyshape history` scans commit messages, annotated tag messages and notes: each
/// reported as kind `commit` with `field`, no `path`, line and column within the text, and
/// never a fragment of the value in any output.
final class HistoryMetadataTests: XCTestCase {
    let a = canary("MessageKey1"), b = canary("TagKey22"), c = canary("NoteKey333")
    var secrets: [String] { [a, b, c] }

    /// A finding with the metadata fields (the shared parser predates them).
    struct Meta: Equatable, CustomStringConvertible {
        var field: String?
        var commit: String?
        var tag: String?
        var notesRef: String?
        var path: String?
        var line: Int?
        var column: Int?
        var description: String {
            "\(field ?? "-") \(commit ?? "-") \(tag ?? notesRef ?? path ?? "-"):\(line ?? 0):\(column ?? 0)"
        }
    }

    struct MetaReport {
        var run: Run
        var findings: [[String: Any]]
        var meta: [Meta] { findings.map { f in
            let l = f["location"] as? [String: Any] ?? [:]
            return Meta(field: l["field"] as? String, commit: l["commit"] as? String, tag: l["tag"] as? String,
                        notesRef: l["notesRef"] as? String, path: l["path"] as? String,
                        line: l["line"] as? Int, column: l["column"] as? Int)
        } }
        /// Only the git-metadata findings (not files of commits).
        var texts: [Meta] { meta.filter { $0.field != nil } }
    }

    func history(_ repo: GitFixture, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> MetaReport {
        let r = keyshape(["history", repo.path, "--format", "json", "--no-progress"] + extra)
        for s in secrets {
            assertNoFragment(of: s, in: r.stdout + r.stderr, "history \(extra)", file: file, line: line)
        }
        let object = r.report
        XCTAssertNotNil(object, "no JSON report (status \(r.status)): \(r.stderr)", file: file, line: line)
        return MetaReport(run: r, findings: object?["findings"] as? [[String: Any]] ?? [])
    }

    func testKeyInACommitMessage() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        repo.commit("init")
        let leaky = repo.commit("deploy\n\nuse TOKEN=\(a) for now\n")
        repo.commit("later")
        let report = history(repo)
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(report.meta, [Meta(field: "message", commit: leaky, line: 3, column: 11)])
        let l = report.findings.first?["location"] as? [String: Any] ?? [:]
        XCTAssertEqual(l["kind"] as? String, "commit")
        XCTAssertNil(l["path"])
        // The contract's fields of a commit text, rendered from its provenance: no path, no
        // blob (the text is no file of the commit).
        XCTAssertEqual(Set(l.keys), ["kind", "commit", "field", "line", "column", "endLine", "endColumn", "byteOffset", "byteLength"])

        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.hasPrefix("\(leaky.prefix(7)) (commit message):3:11: keyshape-canary "), text.stdout)
        for s in secrets { assertNoFragment(of: s, in: text.stdout + text.stderr, "text report") }
    }

    func testKeyInAnAnnotatedTagMessageAndATagOfATag() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let tagged = repo.commit("init")
        repo.git(["tag", "-a", "v1.0", "-m", "release notes\nkey: \(b)\n"])
        // A lightweight tag holds no message; a tag of a tag is read through to the commit.
        repo.git(["tag", "light"])
        repo.git(["tag", "-a", "outer", "-m", "signed off", "v1.0"])
        let report = history(repo)
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(report.meta, [Meta(field: "tag", commit: tagged, tag: "v1.0", line: 2, column: 6)])
        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertTrue(text.stdout.hasPrefix("\(tagged.prefix(7)) (tag v1.0):2:6: keyshape-canary "), text.stdout)
        for s in secrets { assertNoFragment(of: s, in: text.stdout + text.stderr, "text report") }
    }

    func testKeyInANote() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let annotated = repo.commit("init")
        repo.git(["notes", "add", "-m", "reviewed with \(c)", annotated])
        let report = history(repo)
        XCTAssertEqual(report.run.status, 1, report.run.stderr)
        XCTAssertEqual(report.texts, [Meta(field: "note", commit: annotated, notesRef: "refs/notes/commits", line: 1, column: 15)])
        let note = report.findings.first { ($0["location"] as? [String: Any])?["field"] as? String == "note" }
        XCTAssertEqual((note?["location"] as? [String: Any])?["notesRef"] as? String, "refs/notes/commits")
        // The note's blob is also a file of its notes commit, and is reported there too.
        XCTAssertEqual(report.meta.filter { $0.field == nil }.map { $0.path }, [annotated])
        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertTrue(text.stdout.contains("\(annotated.prefix(7)) (note refs/notes/commits):1:15: keyshape-canary "), text.stdout)
    }

    /// `--all-objects` reads the messages of commits and tags no ref or reflog reaches: a
    /// commit written with `commit-tree` and never put on a ref, and a tag whose ref was
    /// deleted. Without the flag neither is read.
    func testAllObjectsScansUnreachableCommitAndTagMessages() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let head = repo.commit("init")
        let dangling = repo.git(["commit-tree", "-p", head, "-m", "wip\n\nkey \(a)\n", repo.rev("HEAD^{tree}")])
        repo.git(["tag", "-a", "gone", "-m", "release\n\(b)\n", head])
        repo.git(["tag", "-d", "gone"])
        XCTAssertEqual(repo.git(["for-each-ref"]).contains("gone"), false)
        let plain = history(repo)
        XCTAssertEqual(plain.run.status, 0, plain.run.stderr)
        XCTAssertEqual(plain.texts, [])
        let all = history(repo, ["--all-objects"])
        XCTAssertEqual(all.run.status, 1, all.run.stderr)
        XCTAssertEqual(all.texts.map(\.description).sorted(),
                       [Meta(field: "message", commit: dangling, line: 3, column: 5),
                        Meta(field: "tag", commit: head, tag: "gone", line: 2, column: 1)].map(\.description).sorted())
        // Packed as well as loose: a commit and a tag packed while a ref reached them, then
        // the branch, the tag and the reflogs dropped.
        repo.git(["checkout", "-q", "-b", "doomed"])
        let packed = repo.commit("doomed\n\n\(c)\n")
        repo.git(["tag", "-a", "old", "-m", "\(c)\n", packed])
        repo.git(["checkout", "-q", "main"])
        repo.git(["repack", "-q", "-a", "-d"])
        repo.git(["branch", "-q", "-D", "doomed"])
        repo.git(["tag", "-d", "old"])
        repo.git(["reflog", "expire", "--expire=now", "--all"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.path + "/.git/objects/" + packed.prefix(2) + "/" + packed.dropFirst(2)))
        XCTAssertEqual(history(repo).texts, [])
        XCTAssertEqual(history(repo, ["--all-objects"]).texts.map(\.description).sorted(),
                       [Meta(field: "message", commit: dangling, line: 3, column: 5),
                        Meta(field: "tag", commit: head, tag: "gone", line: 2, column: 1),
                        Meta(field: "message", commit: packed, line: 3, column: 1),
                        Meta(field: "tag", commit: packed, tag: "old", line: 1, column: 1)].map(\.description).sorted())
    }

    func testRangeAndSinceScanOnlyTheSelectedCommitsMessages() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let old = repo.commit("old\n\n\(a)\n")
        let base = repo.commit("base")
        let new = repo.commit("new\n\n\(b)\n")
        repo.git(["tag", "-a", "v0", "-m", c, old])  // on an unselected commit
        XCTAssertEqual(history(repo).texts.compactMap(\.commit).sorted(), [old, old, new].sorted())
        XCTAssertEqual(history(repo, ["--range", "\(base)..\(new)"]).texts, [Meta(field: "message", commit: new, line: 3, column: 1)])
        XCTAssertEqual(history(repo, ["--since", base]).texts, [Meta(field: "message", commit: new, line: 3, column: 1)])
        let clean = history(repo, ["--range", "\(old)..\(base)"])
        XCTAssertEqual(clean.run.status, 0, clean.run.stderr)
        XCTAssertEqual(clean.texts, [])
        // A pushed tag (a pre-receive hook's range ends at the tag object itself).
        let tagObject = repo.rev("v0")
        XCTAssertEqual(history(repo, ["--range", "\(repo.git(["rev-parse", "--verify", "HEAD"]))..\(tagObject)"]).texts,
                       [Meta(field: "tag", commit: old, tag: "v0", line: 1, column: 1)])
    }

    func testSuppressionsInlineBaselineAndCommitAllowlist() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let allowed = repo.commit("fixture \(a) keyshape:allow")
        let leaky = repo.commit("oops \(b)")
        let inline = history(repo)
        XCTAssertEqual(inline.texts.map(\.commit), [leaky])
        XCTAssertEqual(history(repo, ["--ignore-inline-allow"]).texts.compactMap(\.commit).sorted(), [allowed, leaky].sorted())

        // A baseline written by one run suppresses the finding in the next.
        let dir = TempDir()
        let written = keyshape(["history", repo.path, "--no-progress", "--write-baseline", dir.path + "/base.json"])
        XCTAssertEqual(written.status, 1, written.stderr)
        for s in secrets { assertNoFragment(of: s, in: dir.read("base.json"), "baseline") }
        let baselined = history(repo, ["--baseline", dir.path + "/base.json"])
        XCTAssertEqual(baselined.run.status, 0, baselined.run.stderr)
        XCTAssertEqual(baselined.texts, [])

        // An allowlist naming the commit.
        dir.write("allow.toml", "[[allowlists]]\ncommits = ['''\(leaky)''']\n")
        let listed = history(repo, ["--config", dir.path + "/allow.toml"])
        XCTAssertEqual(listed.run.status, 0, listed.run.stderr)
        XCTAssertEqual(listed.texts, [])
    }

    func testFingerprintNamesCommitFieldAndTag() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let one = repo.commit("first \(a)")
        let two = repo.commit("second \(a)")
        repo.git(["tag", "-a", "t1", "-m", a, two])
        repo.git(["tag", "-a", "t2", "-m", a, two])
        let report = history(repo)
        XCTAssertEqual(report.texts.count, 4, "\(report.meta)")
        let prints = report.findings.compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(Set(prints).count, 4, "message at \(one), message at \(two), tag t1, tag t2: four places")
        XCTAssertEqual(Set(report.findings.compactMap { $0["secretHash"] as? String }).count, 1)
    }

    /// The values appear in no output of any format, and hostile names are escaped.
    func testCanaryInNoOutputAndTagNameEscaped() {
        let repo = GitFixture()
        repo.write("README", "hello\n")
        let id = repo.commit("msg \(a)")
        // A tag object naming itself with control characters (git's porcelain refuses such a
        // name; the object store does not), under an ordinary ref.
        let raw = TempDir()
        raw.write("tag", "object \(id)\ntype commit\ntag evil\u{1B}[31mname\u{7F}\ntagger Ada Tester <ada@example.com> 1700000000 +0000\n\nt \(b)\n")
        let tagObject = repo.git(["hash-object", "-t", "tag", "-w", "--literally", raw.path + "/tag"])
        repo.git(["update-ref", "refs/tags/evil", tagObject])
        repo.git(["notes", "add", "-m", c, id])
        let dir = TempDir()
        for format in ["text", "json", "jsonl", "sarif", "csv", "junit", "markdown", "gitlab"] {
            let r = keyshape(["history", repo.path, "--no-progress", "--format", format,
                              "--sarif-output", dir.path + "/\(format).sarif", "--json-output", dir.path + "/\(format).json"])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            for s in secrets {
                assertNoFragment(of: s, in: r.stdout + r.stderr, format)
                assertNoFragment(of: s, in: dir.read("\(format).sarif") + dir.read("\(format).json"), format + " files")
            }
            XCTAssertFalse(r.stdout.contains("\u{1B}"), format)
        }
        let sarif = dir.read("text.sarif")
        XCTAssertTrue(sarif.contains("commit/\(id)/message"), sarif)
        XCTAssertTrue(sarif.contains("commit/\(id)/note/refs/notes/commits"), sarif)
        let text = keyshape(["history", repo.path, "--no-progress"])
        XCTAssertFalse(text.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, text.stdout.debugDescription)
        XCTAssertTrue(text.stdout.contains("\(id.prefix(7)) (tag evil"), text.stdout)
        let json = history(repo)
        XCTAssertEqual(json.texts.filter { $0.field == "tag" }.count, 1, "\(json.meta)")
    }
}
