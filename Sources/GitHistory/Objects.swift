import Foundation

/// A ref and the object it points at.
public struct RefEntry: Sendable, Hashable {
    public var name: String
    public var target: ObjectID
}

extension Git {
    /// Every ref (`for-each-ref`), with HEAD first when it resolves.
    public func refs() throws -> [RefEntry] {
        let out = try output(["for-each-ref", "--format=%(objectname) %(refname)"])
        var result: [RefEntry] = []
        for line in out.split(separator: 0x0A) {
            guard let space = line.firstIndex(of: 0x20), let id = ObjectID(hexBytes: line[line.startIndex..<space]) else { continue }
            result.append(RefEntry(name: String(decoding: line[(space + 1)...], as: UTF8.self), target: id))
        }
        return result
    }

    /// The commits a ref's reflog names, newest first (empty when it has none).
    public func reflog(_ ref: String) throws -> [ObjectID] {
        let r = try tryOutput(["reflog", "show", "--format=%H", "--end-of-options", ref, "--"])
        guard r.status == 0 else { return [] }
        return r.stdout.split(separator: 0x0A).compactMap { ObjectID(hexBytes: $0) }
    }

    /// The stash entries (`stash@{0}` first).
    public func stashes() throws -> [ObjectID] { try reflog("refs/stash") }

    /// Every blob in the object database (loose, packed and in alternates), reachable or
    /// not, with its size, in pack order. `body` returns false to stop.
    public func allBlobs(_ body: (ObjectID, Int) -> Bool) throws {
        let p = try spawn(["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(objectsize)", "--unordered"])
        let reader = p.outputReader()
        var stopped = false
        while !stopped, let line = reader.token(0x0A) {
            let f = line.split(separator: 0x20)
            guard f.count == 3, f[1].elementsEqual("blob".utf8), let id = ObjectID(hexBytes: f[0]),
                  let size = Int(String(decoding: f[2], as: UTF8.self)) else { continue }
            if !body(id, size) { stopped = true }
        }
        if stopped { p.terminate() }
        let status = p.wait()
        if !stopped && status != 0 {
            throw GitError.commandFailed(command: "git cat-file --batch-all-objects", status: status, reason: p.stderrReason)
        }
    }

    /// Every commit and annotated tag object in the object database (loose, packed and in
    /// alternates), reachable or not, in pack order: `--all-objects` reads their messages too.
    public func allCommitsAndTags() throws -> (commits: [ObjectID], tags: [ObjectID]) {
        let p = try spawn(["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)", "--unordered"])
        let reader = p.outputReader()
        var commits: [ObjectID] = [], tags: [ObjectID] = []
        while let line = reader.token(0x0A) {
            let f = line.split(separator: 0x20)
            guard f.count == 2, let id = ObjectID(hexBytes: f[0]) else { continue }
            if f[1].elementsEqual("commit".utf8) { commits.append(id) } else if f[1].elementsEqual("tag".utf8) { tags.append(id) }
        }
        let status = p.wait()
        if status != 0 {
            throw GitError.commandFailed(command: "git cat-file --batch-all-objects", status: status, reason: p.stderrReason)
        }
        return (commits, tags)
    }
}
