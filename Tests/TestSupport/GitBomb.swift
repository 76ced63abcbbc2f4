import Foundation

/// Builds a "git bomb" with plumbing only: one blob, a tree of ten entries naming it, and
/// each level above a tree of ten entries naming the level below, so a few hundred bytes of
/// objects hold 10^depth paths.
public enum GitBomb {
    /// Writes the bomb's objects into `repo` and commits its tree (on `parent`, if given);
    /// the commit's id. `main` is moved to it.
    @discardableResult
    public static func commit(in repo: String, depth: Int, leaf: String = "hello\n", parent: String? = nil,
                              date: Int = 1_700_000_000) throws -> String {
        let blob = try TestGit.run(repo, ["hash-object", "-w", "--stdin"], input: Data(leaf.utf8))
        var tree = try TestGit.run(repo, ["mktree"], input: Data((0..<10).map { "100644 blob \(blob)\tf\($0)\n" }.joined().utf8))
        for _ in 1..<max(1, depth) {
            tree = try TestGit.run(repo, ["mktree"], input: Data((0..<10).map { "040000 tree \(tree)\td\($0)\n" }.joined().utf8))
        }
        let identity = ["GIT_AUTHOR_NAME": "Bomb", "GIT_AUTHOR_EMAIL": "bomb@example.com", "GIT_AUTHOR_DATE": "\(date) +0000",
                        "GIT_COMMITTER_NAME": "Bomb", "GIT_COMMITTER_EMAIL": "bomb@example.com", "GIT_COMMITTER_DATE": "\(date) +0000"]
        let commit = try TestGit.run(repo, ["commit-tree", tree, "-m", "bomb"] + (parent.map { ["-p", $0] } ?? []), environment: identity)
        try TestGit.run(repo, ["update-ref", "refs/heads/main", commit])
        return commit
    }
}
