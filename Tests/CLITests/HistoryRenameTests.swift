import Foundation
import XCTest

/// Attribution across renames, copies and merges: a secret is new at a path unless a parent
/// held it there or, where the parent lacks the path, in a file the commit deletes relative
/// to that parent (git's rename detection is not used). Each case asserts the exact commit,
/// path and line.
final class HistoryRenameTests: XCTestCase {
    let a = canary("RenameKeyA1"), b = canary("RenameKeyB2")
    var secrets: [String] { [a, b] }

    func history(_ repo: GitFixture, file: StaticString = #filePath, line: UInt = #line) -> ParsedReport {
        let report = keyshapeJSON(["history", repo.path], secrets: secrets, file: file, line: line)
        XCTAssertEqual(report.errors.count, 0, "\(report.errors)", file: file, line: line)
        return report
    }

    /// `git mv` into a new folder needs the folder.
    func mkdir(_ repo: GitFixture, _ name: String) {
        try! FileManager.default.createDirectory(atPath: repo.path + "/" + name, withIntermediateDirectories: true)
    }

    func testKeyInAFileRenamedThreeTimesIsReportedOnceWhereItWasAdded() {
        let repo = GitFixture()
        repo.write("config/app.env", "name=app\nTOKEN=\(a)\nmode=1\n")
        let added = repo.commit("add key")
        repo.git(["mv", "config/app.env", "config/app.env.old"])
        repo.commit("first rename")
        mkdir(repo, "settings")
        repo.git(["mv", "config/app.env.old", "settings/app.env"])
        repo.write("settings/app.env", "name=app\nTOKEN=\(a)\nmode=2\n")
        repo.commit("second rename, with an edit")
        repo.git(["mv", "settings/app.env", "deploy.env"])
        repo.write("unrelated.txt", "x\n")
        repo.commit("third rename, beside another change")
        let report = history(repo)
        XCTAssertEqual(places(report.findings), ["\(added) config/app.env:2"])
        XCTAssertEqual(report.run.status, 1)
    }

    func testRenameThatEditsTheLineHoldingTheKeyIsNotNew() {
        let repo = GitFixture()
        repo.write("a.py", "import os\n\nTOKEN = '\(a)'\n\ndef main():\n    pass\n")
        let added = repo.commit("add")
        repo.git(["mv", "a.py", "b.py"])
        repo.write("b.py", "import os\n\nAPI_TOKEN = os.environ.get('TOKEN', '\(a)')  # moved\n\ndef main():\n    pass\n")
        repo.commit("rename and rewrite the key's line")
        XCTAssertEqual(places(history(repo).findings), ["\(added) a.py:3"])
    }

    /// git's `-M` pairs a deleted file with an added one only when at least half their lines
    /// agree; a key moved out of a deleted file into a new, mostly different one was reported
    /// again. The repository held that key the moment before, so it is not new.
    func testKeyMovedFromADeletedFileIntoANewDifferentFileIsNotNew() {
        let repo = GitFixture()
        repo.write("old.cfg", "[auth]\ntoken=\(a)\n[misc]\nx=1\ny=2\nz=3\n")
        let added = repo.commit("add")
        repo.remove("old.cfg")
        repo.write("src/Settings.swift", "import Foundation\n\nenum Settings {\n    static let token = \"\(a)\"\n    static let retries = 3\n    static let timeout = 30\n}\n")
        repo.commit("move the key into code")
        XCTAssertEqual(places(history(repo).findings), ["\(added) old.cfg:2"])
    }

    func testCopyIntoASecondPathInTheSameCommitIsReportedThere() {
        let repo = GitFixture()
        repo.write("a.env", "one=1\nkey=\(a)\n")
        repo.write("other.txt", "before\n")
        let added = repo.commit("add")
        repo.write("copies/a.env", "one=1\ntwo=2\nkey=\(a)\n")  // a copy, the original kept
        repo.remove("other.txt")                               // a deletion that held no key
        let copied = repo.commit("copy")
        XCTAssertEqual(places(history(repo).findings), ["\(added) a.env:2", "\(copied) copies/a.env:3"].sorted())
    }

    /// A key moved into a file the parent already had is new there: only a path the parent
    /// lacks can be a rename's target.
    func testKeyMovedIntoAnExistingFileIsNew() {
        let repo = GitFixture()
        repo.write("a.env", "key=\(a)\n")
        repo.write("main.env", "x=1\n")
        let added = repo.commit("add")
        repo.remove("a.env")
        repo.write("main.env", "x=1\nkey=\(a)\n")
        let merged = repo.commit("fold a.env into main.env")
        XCTAssertEqual(places(history(repo).findings), ["\(added) a.env:1", "\(merged) main.env:2"].sorted())
    }

    func testKeyAddedDeletedAndAddedBackIsTwoFindings() {
        let repo = GitFixture()
        repo.write("secrets.env", "k=\(a)\n")
        let added = repo.commit("add")
        repo.remove("secrets.env")
        repo.commit("delete the file")
        repo.write("readme.txt", "later\n")
        repo.commit("later")
        repo.write("secrets.env", "k=\(a)\n")
        let back = repo.commit("add it back")
        XCTAssertEqual(places(history(repo).findings), ["\(added) secrets.env:1", "\(back) secrets.env:1"].sorted())
    }

    func testMergeThatResolvesAConflictByAddingAKeyReportsItAtTheMerge() {
        let repo = GitFixture()
        repo.write("conf.ini", "[db]\nhost=base\n")
        repo.commit("base")
        repo.git(["checkout", "-q", "-b", "side"])
        repo.write("conf.ini", "[db]\nhost=side\n")
        repo.commit("side edits host")
        repo.git(["checkout", "-q", "main"])
        repo.write("conf.ini", "[db]\nhost=main\n")
        repo.commit("main edits host")
        repo.git(["merge", "-q", "side"], expect: 1)  // conflict
        repo.write("conf.ini", "[db]\nhost=merged\npassword_token=\(a)\n")
        repo.git(["add", "conf.ini"])
        repo.git(["commit", "-q", "-m", "resolve"])
        let merge = repo.rev("HEAD")
        XCTAssertEqual(repo.git(["rev-list", "--parents", "-n1", "HEAD"]).split(separator: " ").count, 3)
        XCTAssertEqual(places(history(repo).findings), ["\(merge) conf.ini:3"])
    }

    /// One branch renames a file, the other adds a key to it under its old name; the merge
    /// holds the key at the new name. The key is the other branch's, not the merge's.
    func testMergeCarryingAKeyAcrossTheOtherBranchsRenameIsNotNew() {
        let repo = GitFixture()
        let body = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        repo.write("app.cfg", body)
        repo.commit("base")
        repo.git(["checkout", "-q", "-b", "rename"])
        mkdir(repo, "conf")
        repo.git(["mv", "app.cfg", "conf/app.cfg"])
        repo.write("conf/app.cfg", "line one\n" + body.drop { $0 != "\n" }.dropFirst())  // and an edit, so the merge's blob is new
        repo.commit("rename")
        repo.git(["checkout", "-q", "main"])
        repo.write("app.cfg", body + "token=\(a)\n")
        let added = repo.commit("add key under the old name")
        repo.git(["merge", "-q", "--no-ff", "-m", "merge the rename", "rename"])
        let merge = repo.rev("HEAD")
        XCTAssertEqual(repo.git(["show", "\(merge):conf/app.cfg"]).split(separator: "\n").last.map(String.init), "token=\(a)",
                       "git carried the key to the new name")
        XCTAssertEqual(places(history(repo).findings), ["\(added) app.cfg:13"])
        // Only the commits after the key's: the blob that held it was never scanned in this
        // run (the merge's blob differs from it), so the merge's comparison reads and scans
        // it; the merge still adds nothing.
        let later = keyshapeJSON(["history", repo.path, "--since", added], secrets: secrets)
        XCTAssertEqual(later.errors.count, 0, "\(later.errors)")
        XCTAssertEqual(later.run.status, 0, later.run.stderr)
        XCTAssertEqual(places(later.findings), [])
        XCTAssertTrue(later.run.stderr.contains("2 commits"), later.run.stderr)
    }

    /// A merge that renames a file itself, and an evil merge that adds a new file with a key
    /// no parent had: the first is not new, the second is.
    func testMergeThatRenamesAFileAndEvilMergeAddingANewFile() {
        let repo = GitFixture()
        repo.write("keys.env", "k=\(a)\n")
        let added = repo.commit("base")
        repo.git(["checkout", "-q", "-b", "side"])
        repo.write("side.txt", "s\n")
        repo.commit("side")
        repo.git(["checkout", "-q", "main"])
        repo.write("main.txt", "m\n")
        repo.commit("main")
        repo.git(["merge", "-q", "--no-ff", "--no-commit", "side"])
        repo.git(["mv", "keys.env", "renamed-in-merge.env"])
        repo.write("fresh.env", "x=1\nk2=\(b)\n")
        repo.git(["add", "-A"])
        repo.git(["commit", "-q", "-m", "merge, renaming and adding"])
        let merge = repo.rev("HEAD")
        XCTAssertEqual(places(history(repo).findings), ["\(added) keys.env:1", "\(merge) fresh.env:2"].sorted())
    }
}
