import FileInputs
import GitHistory

/// What the datastore's commands ask of a repository (its identity, the commits a full
/// history run starts from, whether earlier ones are still reachable), through the same
/// isolated git runner as every scan.
extension Repository {
    /// The root commit ids of HEAD, sorted and comma-joined: the same for every clone.
    /// nil when git cannot say (no commit yet). Walks the whole history: ask once.
    public func rootCommits() -> String? {
        guard let r = try? git.tryOutput(["rev-list", "--max-parents=0", "HEAD", "--"]), r.status == 0 else { return nil }
        let ids = Repository.commitIDs(r.stdout).sorted()
        return ids.isEmpty ? nil : ids.joined(separator: ",")
    }

    /// Every ref tip and reflog entry (what a full history run starts from), sorted and
    /// unique; nil when git cannot list them.
    public func startingCommits() -> [String]? {
        guard let r = try? git.tryOutput(["rev-list", "--no-walk", "--all", "--reflog"]), r.status == 0 else { return nil }
        return Array(Set(Repository.commitIDs(r.stdout))).sorted()
    }

    /// Whether every commit in `commits` is still reachable from a ref or a reflog entry
    /// (false too when git cannot tell, or one is gone).
    public func stillReachable(_ commits: [String]) -> Bool {
        // The ids come from a datastore, a file anyone may hand over: only full commit ids
        // reach git's argument list, never an option (`--output=FILE`) or a revision expression.
        guard commits.allSatisfy({ ($0.utf8.count == 40 || $0.utf8.count == 64) && $0.utf8.allSatisfy { Self.isHexDigit($0) } }) else { return false }
        guard let r = try? git.tryOutput(["rev-list", "--max-count=1"] + commits + ["--not", "--all", "--reflog"]) else { return false }
        return r.status == 0 && r.stdout.isEmpty
    }

    static func isHexDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x61...0x66).contains(c) || (0x41...0x46).contains(c) }

    static func commitIDs(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.count >= 40 && $0.allSatisfy(\.isHexDigit) }
    }
}

extension SettingsFile {
    /// A file read bounded by `limit` bytes (a report to import, a list of repositories).
    public static func contents(of path: String, limit: Int) throws(ReadError) -> [UInt8] {
        do { return try BoundedRead.contents(of: path, limit: limit) } catch { throw ReadError(message: error.message) }
    }
}
