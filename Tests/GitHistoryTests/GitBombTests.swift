import Foundation
import TestSupport
import XCTest
@testable import GitHistory

/// A tree that names one subtree ten times at every level lists 10^depth paths from a few
/// hundred bytes of objects. The listing fails closed past the per-commit limit, and a
/// commit under it still comes out whole, in order, handed over in pieces.
final class GitBombTests: XCTestCase {
    func testACommitPastThePathLimitFailsTheListing() throws {
        let f = Fixture()
        f.write("a.txt", "a\n")
        f.commit("root")
        let bomb = try GitBomb.commit(in: f.path, depth: 4, parent: f.rev("HEAD").hex)
        let log = try CommitLog(git: try f.git(), selection: CommitSelection(), maxChangesPerCommit: 1000)
        XCTAssertThrowsError(try { while try log.next() != nil {} }()) { error in
            XCTAssertEqual(error as? GitError, .tooManyPaths(commit: bomb, limit: 1000))
            XCTAssertTrue("\(error)".contains("changes more than 1000 paths"), "\(error)")
        }
    }

    /// git queues every path of a commit before printing one, so the limit binds git's heap
    /// too: a depth-6 bomb (a million paths, 294 MB of git's memory unbounded) ends git with
    /// "out of memory" instead of letting it grow.
    func testGitsOwnMemoryIsBoundedByThePathLimit() throws {
        let f = Fixture()
        let bomb = try GitBomb.commit(in: f.path, depth: 6)
        let log = try CommitLog(git: try f.git(), selection: CommitSelection(), maxChangesPerCommit: 1000)
        XCTAssertThrowsError(try { while try log.next() != nil {} }()) { error in
            guard case GitError.commandFailed(let command, _, let reason)? = error as? GitError else {
                return XCTAssertEqual(error as? GitError, .tooManyPaths(commit: bomb, limit: 1000))
            }
            XCTAssertEqual(command, "git diff-tree")
            XCTAssertTrue(reason.contains("ran out of the memory keyshape allows it"), reason)
        }
    }

    func testACommitUnderTheLimitIsListedWholeAndInOrder() throws {
        let f = Fixture()
        f.write("a.txt", "a\n")
        let root = f.commit("root")
        // Dated after the others (its reflog entry makes it a start of the listing), so a
        // commit follows it in its chunk: the chunk is handed over in two pieces.
        let bomb = try GitBomb.commit(in: f.path, depth: 5, parent: root.hex, date: 1_750_000_000)
        // One more commit on top, made with plumbing (a checkout would write 100,000 files).
        let blob = f.run(["hash-object", "-w", "--stdin"], stdin: "b\n")
        let tree = f.run(["mktree"], stdin: f.run(["ls-tree", bomb]) + "\n100644 blob \(blob)\tb.txt\n")
        let tip = f.run(["commit-tree", tree, "-p", bomb, "-m", "after"])
        f.run(["update-ref", "refs/heads/main", tip])
        let order = f.run(["rev-list", "--all", "--reflog"]).split(separator: "\n").map { ObjectID(String($0))! }
        let expected = [ObjectID(tip)!: 1, ObjectID(bomb)!: 100_001, root: 1]  // the bomb's paths plus a.txt deleted
        for shards in [1, 2] {
            let log = try CommitLog(git: try f.git(), selection: CommitSelection(), shards: shards)
            var listed: [(ObjectID, Int)] = []
            while let c = try log.next() { listed.append((c.commit.id, c.changes.count)) }
            XCTAssertNotEqual(order.last, ObjectID(bomb)!, "a commit follows the bomb in its chunk")
            XCTAssertEqual(listed.map(\.0), order, "shards \(shards)")
            XCTAssertEqual(listed.map(\.1), order.map { expected[$0]! }, "shards \(shards)")
        }
    }
}
