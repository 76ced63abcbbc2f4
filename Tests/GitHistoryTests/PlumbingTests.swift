import Foundation
import XCTest
@testable import GitHistory

final class ObjectIDTests: XCTestCase {
    func testHexRoundTripAndZero() {
        let hex = "0123456789abcdef0123456789ABCDEF01234567"
        let id = ObjectID(hex)
        XCTAssertEqual(id?.hex, hex.lowercased())
        XCTAssertEqual(id?.byteCount, 20)
        let sha256 = String(repeating: "ab", count: 32)
        XCTAssertEqual(ObjectID(sha256)?.hex, sha256)
        XCTAssertNil(ObjectID("xyz"))
        XCTAssertNil(ObjectID(String(repeating: "g", count: 40)))
        XCTAssertTrue(ObjectID.zero(byteCount: 20).isZero)
        XCTAssertFalse(id!.isZero)
        XCTAssertNotEqual(ObjectID(String(repeating: "0", count: 39) + "1"), ObjectID(String(repeating: "0", count: 40)))
        // Every position checked, from slices as the log parser passes them.
        for position in 0..<64 {
            var digits = Array(String(repeating: "a", count: 64).utf8)
            digits[position] = UInt8(ascii: "g")
            XCTAssertNil(ObjectID(hexBytes: digits[...]), "bad digit at \(position)")
        }
        for _ in 0..<200 {
            let count = Bool.random() ? 40 : 64
            let text = String((0..<count).map { _ in "0123456789abcdefABCDEF".randomElement()! })
            let line = Array(("x " + text + " y").utf8)
            XCTAssertEqual(ObjectID(hexBytes: line[2..<(2 + count)])?.hex, text.lowercased())
        }
    }
}

final class ParsingTests: XCTestCase {
    func testUnquoteC() {
        XCTAssertEqual(Git.unquoteC(Array("\"a\\tb\\n\\\"c\\\\\\303\\251\"".utf8)), Array("a\tb\n\"c\\".utf8) + [0xC3, 0xA9])
        XCTAssertEqual(Git.unquoteC(Array("plain".utf8)), Array("plain".utf8))
    }

    func testAddedLinesSkipHunkBodiesThatLookLikeHeaders() throws {
        let patch = """
        diff --git a/x.txt b/x.txt
        index 1111111..2222222 100644
        --- a/x.txt
        +++ b/x.txt
        @@ -0,0 +1,3 @@
        +++ b/fake.txt
        +diff --git a/y b/y
        +@@ -1 +1 @@
        @@ -10 +12,0 @@
        -gone
        @@ -20,2 +22 @@
        -a
        -b
        +c
        \\ No newline at end of file
        diff --git "a/sp ace\\303\\251" "b/sp ace\\303\\251"
        --- "a/sp ace\\303\\251"\t
        +++ "b/sp ace\\303\\251"\t
        @@ -1 +1 @@
        -old
        +new

        """
        let (r, w) = try Subprocess.pipe("test")
        let bytes = Array(patch.utf8)
        DispatchQueue.global().async {
            _ = CatFileReader.writeAll(w, bytes)
            close(w)
        }
        let added = Git.parseAddedLines(FDReader(fd: r))
        close(r)
        XCTAssertEqual(added[Array("x.txt".utf8)], [1...3, 22...22])
        XCTAssertEqual(added[Array("sp ace".utf8) + [0xC3, 0xA9]], [1...1])
        XCTAssertNil(added[Array("fake.txt".utf8)])
        XCTAssertEqual(added.count, 2)
    }
}

final class GitRunnerTests: XCTestCase {
    func testNotARepositoryAndGitMissing() {
        let dir = NSTemporaryDirectory() + "keyshape-norepo-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertThrowsError(try Git(repository: dir)) { error in
            guard case GitError.notARepository(let path, let detail)? = error as? GitError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, dir)
            XCTAssertEqual(detail, "git finds no repository there; a .git file may name a missing folder")
        }
        var options = Git.Options()
        options.baseEnvironment["PATH"] = "/nonexistent"
        XCTAssertThrowsError(try Git(repository: dir, options: options)) { error in
            XCTAssertEqual(error as? GitError, .gitNotFound)
        }
    }

    func testCallerGitVariablesAreDropped() throws {
        let a = Fixture(), b = Fixture()
        a.write("a.txt", "a\n")
        let inA = a.commit("a")
        b.write("b.txt", "b\n")
        b.commit("b")
        var options = Git.Options()
        options.baseEnvironment["GIT_DIR"] = b.path + "/.git"
        options.baseEnvironment["GIT_WORK_TREE"] = b.path
        options.baseEnvironment["GIT_CONFIG_PARAMETERS"] = "'core.fsmonitor'='touch /tmp/never'"
        let git = try Git(repository: a.path, options: options)
        XCTAssertEqual(try git.resolveCommit("HEAD"), inA)
        XCTAssertFalse(git.environment.contains { $0.hasPrefix("GIT_DIR=") || $0.hasPrefix("GIT_WORK_TREE=") || $0.hasPrefix("GIT_CONFIG_PARAMETERS=") })
        XCTAssertTrue(git.environment.contains("GIT_CONFIG_NOSYSTEM=1"))
        XCTAssertTrue(git.environment.contains("GIT_CONFIG_GLOBAL=/dev/null"))
        XCTAssertTrue(git.configArgs.contains("core.fsmonitor=false"))
        XCTAssertTrue(git.configArgs.contains("core.hooksPath=/dev/null"))
        // The allocator setting for git's processes, unless the caller has its own.
        XCTAssertTrue(git.environment.contains { $0.hasPrefix("GLIBC_TUNABLES=glibc.malloc.trim_threshold=") })
        options.baseEnvironment["GLIBC_TUNABLES"] = "glibc.malloc.arena_max=2"
        XCTAssertTrue(try Git(repository: a.path, options: options).environment.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=2"))
    }

    /// git's stderr quotes what it was given (here an object name chosen to look like a
    /// value); keyshape's error names the command and status, and never git's words.
    func testFailureNamesCommandAndStatusNotGitsMessage() throws {
        let f = Fixture()
        f.commit("x")
        let git = try f.git()
        let planted = "planted-" + "name-9f8e7d6c"
        XCTAssertThrowsError(try git.output(["cat-file", "-p", planted])) { error in
            guard case GitError.commandFailed(let command, let status, let reason)? = error as? GitError else { return XCTFail("\(error)") }
            XCTAssertEqual(command, "git cat-file")
            XCTAssertNotEqual(status, 0)
            XCTAssertFalse(reason.contains(planted))
            XCTAssertFalse("\(error)".contains(planted), "\(error)")
            XCTAssertTrue("\(error)".hasPrefix("git cat-file failed (exit \(status))"), "\(error)")
        }
        // Recognised causes come out in keyshape's words.
        XCTAssertEqual(GitError.explain(Array("fatal: bad config line 3 in file .git/config\n".utf8)), "git cannot parse the repository's configuration")
        XCTAssertEqual(GitError.explain(Array("fatal: not a git repository: /x/\(planted)\n".utf8)),
                       "git finds no repository there; a .git file may name a missing folder")
        XCTAssertEqual(GitError.explain(Array("fatal: \(planted)\n".utf8)), "")
    }

    /// No transport, whatever the repository allows: its `protocol.ext.allow=always`
    /// outranks the command-line `protocol.allow=never`, so only `GIT_ALLOW_PROTOCOL` (an
    /// allow-list naming none) stops a fetch, lazy or not, on a git that would make one.
    func testNoTransportEvenWhereTheRepositoryAllowsIt() throws {
        let f = Fixture()
        f.commit("x")
        let marker = f.root + "/fetched"
        f.run(["config", "remote.origin.url", "ext::sh -c touch% \(marker)"])
        f.run(["config", "protocol.ext.allow", "always"])
        let git = try f.git()
        XCTAssertTrue(git.environment.contains("GIT_ALLOW_PROTOCOL=none"))
        XCTAssertTrue(git.environment.contains("GIT_NO_LAZY_FETCH=1"))
        XCTAssertThrowsError(try git.output(["fetch", "-q", "origin"]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the remote's command ran")
    }

    func testBareShallowAndObjectFormat() throws {
        let f = Fixture()
        f.write("a", "1\n"); f.commit("1")
        f.write("a", "2\n"); f.commit("2")
        let bare = try Git(repository: f.path + "/.git")
        XCTAssertFalse(bare.isShallow)
        XCTAssertEqual(bare.root, f.path + "/.git")
        XCTAssertEqual(bare.oidByteCount, 20)
        let clone = f.root + "/shallow"
        f.run(["clone", "-q", "--depth", "1", "file://" + f.path, clone])
        let shallow = try Git(repository: clone)
        XCTAssertTrue(shallow.isShallow)
        XCTAssertEqual(shallow.root, clone)
        let b = Fixture(bare: true)
        let g = try Git(repository: b.path)
        XCTAssertTrue(g.isBare)
        XCTAssertEqual(g.root, b.path)
    }
}

final class CatFileTests: XCTestCase {
    func testStreamsManyObjectsReportsMissingAndSkipsLarge() throws {
        let f = Fixture()
        for i in 0..<300 { f.write("f\(i).txt", String(repeating: "line \(i)\n", count: i + 1)) }
        f.commit("many")
        let git = try f.git()
        let byName = f.blobs()
        var ids = (0..<300).map { byName["f\($0).txt"]! }
        ids.insert(ObjectID(String(repeating: "1", count: 40))!, at: 150)
        let reader = CatFileReader(git: git)
        var seen = 0, missing = [Int](), large = 0
        reader.read(ids, maxSize: 2000) { i, result in
            switch result {
            case .object(let type, let bytes):
                XCTAssertEqual(type, "blob")
                let n = i > 150 ? i - 1 : i
                XCTAssertEqual(bytes.count, Array(String(repeating: "line \(n)\n", count: n + 1).utf8).count)
                seen += 1
            case .missing: missing.append(i)
            case .tooLarge(_, let size): XCTAssertGreaterThan(size, 2000); large += 1
            case .stream: XCTFail("no streaming asked for")
            case .failed(let m): XCTFail(m)
            }
        }
        XCTAssertEqual(missing, [150])
        XCTAssertEqual(seen + large, 300)
        XCTAssertGreaterThan(large, 0)
        // The same process serves a second request.
        XCTAssertEqual(reader.readObject(ids[0])?.bytes, Array("line 0\n".utf8))
        reader.close()
    }

    /// Reading straight into the caller's regions: small regions and a cap on objects per
    /// region force many switches, some objects are larger than a region, one is missing and
    /// some are over the size limit. Every object's bytes are still right after the whole
    /// read, in the region it was handed out in.
    func testReadsIntoCallerRegions() throws {
        let f = Fixture()
        func content(_ i: Int) -> String {
            i % 50 == 7 ? String(repeating: "big \(i) ", count: 4000 + 9000 * (i % 3)) : String(repeating: "line \(i)\n", count: i + 1)
        }
        for i in 0..<200 { f.write("f\(i).txt", content(i)) }
        f.commit("many")
        let byName = f.blobs()
        var ids = (0..<200).map { byName["f\($0).txt"]! }
        ids.insert(ObjectID(String(repeating: "1", count: 40))!, at: 100)
        let reader = CatFileReader(git: try f.git())
        var regions: [UnsafeMutableRawBufferPointer] = []
        defer { regions.forEach { $0.deallocate() } }
        var inRegion = 0, minimums: [Int] = []
        var got: [Int: UnsafeRawBufferPointer] = [:]
        var missing: [Int] = [], large: [Int] = []
        let into = CatFileReader.Regions(next: { minimum, adopt in
            minimums.append(minimum)
            let region = UnsafeMutableRawBufferPointer.allocate(byteCount: max(minimum, 8 << 10), alignment: 16)
            regions.append(region)
            inRegion = 0
            adopt(region.baseAddress!, region.count)
        }, full: { inRegion >= 5 })
        reader.read(ids, maxSize: 100_000, regions: into) { i, result in
            switch result {
            case .object(_, let bytes):
                let region = regions.last!
                XCTAssertTrue(bytes.baseAddress! >= UnsafeRawPointer(region.baseAddress!) &&
                              bytes.baseAddress! + bytes.count <= UnsafeRawPointer(region.baseAddress! + region.count))
                got[i] = bytes
                inRegion += 1
            case .missing: missing.append(i)
            case .tooLarge(_, let size): XCTAssertGreaterThan(size, 100_000); large.append(i)
            case .stream: XCTFail("no streaming asked for")
            case .failed(let m): XCTFail(m)
            }
        }
        XCTAssertEqual(missing, [100])
        XCTAssertFalse(large.isEmpty)
        XCTAssertEqual(got.count + large.count, 200)
        XCTAssertGreaterThan(regions.count, 40)
        XCTAssertTrue(minimums.contains { $0 > 8 << 10 }, "a region grown for a large object")
        for (i, bytes) in got {
            let n = i > 100 ? i - 1 : i
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), content(n), "object \(i)")
        }
        // The reader is back on its own buffer: the next plain read works.
        XCTAssertEqual(reader.readObject(ids[0])?.bytes, Array(content(0).utf8))
        reader.close()
    }

    /// Objects over `streamAbove` come as streams the caller reads in pieces (or leaves
    /// partly unread), between objects read into regions as before.
    func testLargeObjectsStreamInPiecesBetweenRegions() throws {
        let f = Fixture()
        func content(_ i: Int) -> String { i % 4 == 1 ? String(repeating: "large \(i) ", count: 3000 + 500 * i) : "small \(i)\n" }
        for i in 0..<12 { f.write("f\(i).txt", content(i)) }
        f.commit("mixed")
        let byName = f.blobs()
        let ids = (0..<12).map { byName["f\($0).txt"]! }
        let reader = CatFileReader(git: try f.git())
        var regions: [UnsafeMutableRawBufferPointer] = []
        defer { regions.forEach { $0.deallocate() } }
        let into = CatFileReader.Regions(next: { minimum, adopt in
            let region = UnsafeMutableRawBufferPointer.allocate(byteCount: max(minimum, 8 << 10), alignment: 16)
            regions.append(region)
            adopt(region.baseAddress!, region.count)
        }, full: { false })
        var small: [Int: UnsafeRawBufferPointer] = [:], streamed: [Int: String] = [:]
        reader.read(ids, streamAbove: 10_000, regions: into) { i, result in
            switch result {
            case .object(_, let bytes):
                XCTAssertLessThanOrEqual(bytes.count, 10_000)
                small[i] = bytes
            case .stream(_, let size, let stream):
                XCTAssertGreaterThan(size, 10_000)
                // Pieces of 777 bytes; object 5 only half read (the rest is skipped).
                let wanted = i == 5 ? size / 2 : size
                var got = [UInt8](), piece = [UInt8](repeating: 0, count: 777)
                while got.count < wanted {
                    let n = min(777, wanted - got.count)
                    XCTAssertTrue(piece.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, count: n) })
                    got += piece[0..<n]
                }
                streamed[i] = String(decoding: got, as: UTF8.self)
            default: XCTFail("\(i): \(result)")
            }
        }
        XCTAssertEqual(streamed.keys.sorted(), [1, 5, 9])
        for (i, text) in streamed { XCTAssertEqual(text, i == 5 ? String(content(i).prefix(text.count)) : content(i), "object \(i)") }
        XCTAssertEqual(streamed[5]?.count, content(5).utf8.count / 2)
        XCTAssertEqual(small.count, 9)
        for (i, bytes) in small { XCTAssertEqual(String(decoding: bytes, as: UTF8.self), content(i), "object \(i)") }
        XCTAssertEqual(reader.readObject(ids[2])?.bytes, Array(content(2).utf8))
        reader.close()
    }

    func testCorruptLooseObjectIsReportedAndReadingGoesOn() throws {
        let f = Fixture()
        f.write("a", "alpha\n"); f.write("b", "bravo\n"); f.write("c", "charlie\n")
        f.commit("x")
        let a = f.rev("HEAD:a"), b = f.rev("HEAD:b"), c = f.rev("HEAD:c")
        let path = f.path + "/.git/objects/" + b.hex.prefix(2) + "/" + b.hex.dropFirst(2)
        chmod(path, 0o644)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        let reader = CatFileReader(git: try f.git())
        var results: [String] = []
        reader.read([a, b, c]) { _, r in
            switch r {
            case .object(_, let bytes): results.append(String(decoding: bytes, as: UTF8.self))
            case .missing: results.append("missing")
            default: results.append("other")
            }
        }
        XCTAssertEqual(results, ["alpha\n", "missing", "charlie\n"])
    }
}

final class CommitLogTests: XCTestCase {
    func read(_ git: Git, _ selection: CommitSelection = CommitSelection()) throws -> [CommitChanges] {
        let log = try CommitLog(git: git, selection: selection)
        var out: [CommitChanges] = []
        while let c = try log.next() { out.append(c) }
        return out
    }

    /// diff-tree's raw records, parsed in place: one parent (with a rename score), combined
    /// (two parents), and the malformed ones named.
    func testRawRecordFields() throws {
        let a = String(repeating: "a", count: 40), b = String(repeating: "b", count: 40), c = String(repeating: "c", count: 40)
        func parse(_ text: String) -> Result<CommitLog.RawFields, GitError> {
            Array(text.utf8).withUnsafeBytes { CommitLog.rawFields($0) }
        }
        let one = try parse(":100644 100755 \(a) \(b) R087").get()
        XCTAssertEqual(one.modes, [0o100644, 0o100755])
        XCTAssertEqual(one.ids, [ObjectID(a)!, ObjectID(b)!])
        XCTAssertEqual(one.status, Array("R".utf8))
        let merge = try parse("::100644 100644 100644 \(a) \(b) \(c) MM").get()
        XCTAssertEqual(merge.modes.count, 3)
        XCTAssertEqual(merge.ids, [ObjectID(a)!, ObjectID(b)!, ObjectID(c)!])
        XCTAssertEqual(merge.status, Array("MM".utf8))
        for (text, detail) in [(":100644 100644 \(a) M", "raw record with 4 fields"),
                               (":100648 100644 \(a) \(b) M", "mode"),
                               (":100644 100644 \(a) \(b.dropLast()) M", "object name")] {
            guard case .failure(let error) = parse(text) else { XCTFail("accepted \(text)"); continue }
            XCTAssertTrue("\(error)".contains(detail), "\(error)")
        }
    }

    func testRootRenameMergeAndOddPaths() throws {
        let f = Fixture()
        let odd: [UInt8] = Array("dir with space/new\nline ".utf8) + [0xE9]
        f.write(odd, "odd\n")
        f.write("a.txt", "one\ntwo\nthree\nfour\n")
        let root = f.commit("root")
        f.run(["mv", "a.txt", "b.txt"])
        let rename = f.commit("rename")
        f.run(["checkout", "-q", "-b", "side"])
        f.write("s.txt", "side\n")
        let side = f.commit("side")
        f.run(["checkout", "-q", "main"])
        f.write("m.txt", "main\n")
        let main = f.commit("main")
        f.run(["merge", "-q", "--no-ff", "--no-commit", "side"])
        f.write("b.txt", "one\ntwo\nthree\nfour\nevil\n")
        f.run(["add", "b.txt"])
        f.run(["commit", "-q", "-m", "merge"])
        let merge = f.rev("HEAD")
        let commits = try read(try f.git())
        XCTAssertEqual(Set(commits.map(\.commit.id)), [root, rename, side, main, merge])
        let byID = Dictionary(uniqueKeysWithValues: commits.map { ($0.commit.id, $0) })

        let r = byID[root]!
        XCTAssertEqual(r.commit.parents, [])
        XCTAssertEqual(r.commit.author, "Ada")
        XCTAssertEqual(r.commit.email, "ada@example.com")
        XCTAssertTrue(r.commit.date.hasPrefix("2023-11-14T"), r.commit.date)
        XCTAssertEqual(Set(r.changes.map(\.path)), [odd, Array("a.txt".utf8)])
        XCTAssertTrue(r.changes.allSatisfy { $0.oldBlobs.count == 1 && $0.oldBlobs[0].isZero && $0.status == [0x41] })

        // No rename detection: the rename is a deletion and an addition of the same blob.
        let mv = byID[rename]!
        XCTAssertEqual(mv.changes.count, 2)
        let gone = try XCTUnwrap(mv.changes.first { $0.path == Array("a.txt".utf8) })
        let added = try XCTUnwrap(mv.changes.first { $0.path == Array("b.txt".utf8) })
        XCTAssertTrue(gone.isDeletion)
        XCTAssertEqual(gone.status, [0x44])
        XCTAssertEqual(gone.oldBlobs, [f.rev("\(root):a.txt")])
        XCTAssertEqual(added.status, [0x41])
        XCTAssertNil(added.oldPath)
        XCTAssertEqual(added.oldBlobs.map(\.isZero), [true])
        XCTAssertEqual(added.newBlob, gone.oldBlobs[0])

        // What a commit deletes relative to one parent, with the blobs the parent held there.
        let git = try f.git()
        let deleted = try CommitLog.deletions(git, from: root, to: rename)
        XCTAssertEqual(deleted.map(\.path), [Array("a.txt".utf8)])
        XCTAssertEqual(deleted.map(\.oldBlobs), [[f.rev("\(root):a.txt")]])
        XCTAssertTrue(deleted.allSatisfy(\.isDeletion))
        XCTAssertEqual(try CommitLog.deletions(git, from: rename, to: root).map(\.path), [Array("b.txt".utf8)], "the other way round")

        let m = byID[merge]!
        XCTAssertEqual(m.commit.parents, [main, side])
        XCTAssertEqual(m.changes.count, 1, "only the path that differs from both parents")
        XCTAssertEqual(m.changes[0].path, Array("b.txt".utf8))
        XCTAssertEqual(m.changes[0].oldBlobs, [f.rev("\(main):b.txt"), f.rev("\(side):b.txt")])
        XCTAssertEqual(m.changes[0].newBlob, f.rev("\(merge):b.txt"))

        var range = CommitSelection()
        range.allRefsAndReflogs = false
        range.include = [merge.hex]
        range.exclude = [main.hex]
        XCTAssertEqual(Set(try read(try f.git(), range).map(\.commit.id)), [side, merge])
    }

    /// Several diff-tree processes, each given every n-th chunk of the commit list, give the
    /// commits and changes of one process in the same order: chunks of commits with no
    /// change (diff-tree prints nothing for them), a merge, more chunks than processes, and
    /// a process dealt no chunk at all.
    func testShardedListingKeepsOrderAndChanges() throws {
        let f = Fixture()
        f.write("a.txt", "0\n")
        f.commit("root")
        for i in 1...9 {
            if i % 3 == 0 {
                f.commit("empty \(i)")  // no change
            } else {
                f.write("f\(i).txt", "\(i)\n")
                f.commit("add \(i)")
            }
        }
        f.run(["checkout", "-q", "-b", "side", "HEAD~4"])
        f.write("side.txt", "s\n")
        f.commit("side")
        f.run(["checkout", "-q", "main"])
        f.run(["merge", "-q", "--no-ff", "--no-commit", "side"])
        f.write("evil.txt", "e\n")  // in neither parent: the merge's combined diff lists it
        f.commit("merge")
        let git = try f.git()
        func list(shards: Int, chunk: Int) throws -> (commits: [String], listed: [ObjectID]) {
            let log = try CommitLog(git: git, selection: CommitSelection(), shards: shards, chunkCommits: chunk)
            var out: [String] = []
            while let c = try log.next() {
                out.append(c.commit.id.hex + " " + c.commit.parents.map(\.hex).joined(separator: ",") + " "
                           + c.changes.map { String(decoding: $0.path, as: UTF8.self) + ":" + $0.newBlob.hex + ":" + $0.oldBlobs.map(\.hex).joined(separator: ",") }.joined(separator: ";"))
            }
            return (out, log.listedCommits())
        }
        let one = try list(shards: 1, chunk: 1000)
        let revList = f.run(["rev-list", "--all", "--reflog"]).split(separator: "\n").map { ObjectID(String($0))! }
        XCTAssertEqual(one.listed, revList)
        XCTAssertEqual(one.commits.count, revList.count - 3, "the three empty commits print nothing")
        XCTAssertTrue(one.commits.contains { $0.split(separator: " ")[1].contains(",") && $0.contains("evil.txt") }, "the merge is listed")
        for (shards, chunk) in [(2, 1), (3, 2), (2, 3), (4, 5), (3, 100)] {
            let sharded = try list(shards: shards, chunk: chunk)
            XCTAssertEqual(sharded.commits, one.commits, "\(shards) processes, \(chunk) commits a chunk")
            XCTAssertEqual(sharded.listed, revList)
        }
    }

    /// The first chunk is smaller than the others (`CommitLog.firstChunkCommits`), so with
    /// more commits than that the chunks differ in size; they still come back in order.
    func testSmallerFirstChunkKeepsOrder() throws {
        let f = Fixture()
        let total = CommitLog.firstChunkCommits + 9
        for i in 0..<total {
            f.write("f\(i % 5).txt", "\(i)\n")
            f.commit("c\(i)")
        }
        let git = try f.git()
        func list(shards: Int, chunk: Int) throws -> [String] {
            let log = try CommitLog(git: git, selection: CommitSelection(), shards: shards, chunkCommits: chunk)
            var out: [String] = []
            while let c = try log.next() {
                out.append(c.commit.id.hex + " " + c.changes.map { String(decoding: $0.path, as: UTF8.self) + ":" + $0.newBlob.hex }.joined(separator: ";"))
            }
            XCTAssertEqual(log.listedCommits().count, total)
            return out
        }
        let one = try list(shards: 1, chunk: 1000)
        XCTAssertEqual(one.count, total)
        // Two chunks (the small first one, then the rest) on two processes; and three chunks on three.
        XCTAssertEqual(try list(shards: 2, chunk: CommitLog.chunkCommits), one)
        XCTAssertEqual(try list(shards: 3, chunk: CommitLog.firstChunkCommits / 2 + 1), one)
    }

    func testReflogAndStashEnumeration() throws {
        let f = Fixture()
        f.write("a", "1\n")
        f.commit("one")
        f.write("a", "2\n")
        f.run(["stash", "-q"])
        f.write("a", "3\n")
        f.run(["stash", "-q"])
        let git = try f.git()
        XCTAssertEqual(try git.stashes(), [f.rev("stash@{0}"), f.rev("stash@{1}")])
        XCTAssertTrue(try git.refs().contains { $0.name == "refs/stash" })
        let commits = Set(try read(git).map(\.commit.id))
        XCTAssertTrue(commits.contains(f.rev("stash@{1}")), "older stash entries come from the reflog")
    }

    func testEmptyRepository() throws {
        let f = Fixture()
        XCTAssertEqual(try read(try f.git()).count, 0)
        var blobs = 0
        try f.git().allBlobs { _, _ in blobs += 1; return true }
        XCTAssertEqual(blobs, 0)
    }

    func testAllBlobsIncludesDangling() throws {
        let f = Fixture()
        f.write("a", "kept\n")
        f.commit("x")
        let dangling = ObjectID(f.run(["hash-object", "-w", "--stdin"], stdin: "dangling\n"))!
        var found = Set<ObjectID>()
        try f.git().allBlobs { id, _ in found.insert(id); return true }
        XCTAssertEqual(found, [f.rev("HEAD:a"), dangling])
    }
}

final class StagedDiffTests: XCTestCase {
    func testAddedLinesRenamesAndFirstCommit() throws {
        let f = Fixture()
        f.write("new.txt", "a\nb\n")
        f.run(["add", "new.txt"])
        var diff = try f.git().stagedDiff()
        XCTAssertEqual(diff.changes.count, 1)
        XCTAssertEqual(diff.changes[0].status, UInt8(ascii: "A"), "before the first commit, against the empty tree")
        XCTAssertEqual(diff.changes[0].addedLines, [1...2])
        XCTAssertTrue(diff.changes[0].oldBlob.isZero)
        f.write("b.txt", "1\n2\n3\n4\n5\n6\n")
        f.commit("first")
        f.run(["mv", "b.txt", "c d.txt"])
        f.write("c d.txt", "0\n1\n2\n3\n4\n5\n6\n")
        f.write("new.txt", "a\nb\nc\n")
        f.run(["add", "-A"])
        diff = try f.git().stagedDiff()
        let byPath = Dictionary(uniqueKeysWithValues: diff.changes.map { (String(decoding: $0.path, as: UTF8.self), $0) })
        XCTAssertEqual(byPath["c d.txt"]?.oldPath, Array("b.txt".utf8))
        XCTAssertEqual(byPath["c d.txt"]?.status, UInt8(ascii: "R"))
        XCTAssertFalse(byPath["c d.txt"]?.oldBlob.isZero ?? true, "against HEAD once there is one")
        XCTAssertEqual(byPath["c d.txt"]?.addedLines, [1...1])
        XCTAssertEqual(byPath["new.txt"]?.addedLines, [3...3])
    }
}
