import Foundation
#if canImport(Glibc)
import Glibc
#endif
import POSIXIO

/// The repository's shallow file (`.git/shallow`), checked against the object store.
///
/// git treats every commit listed there as having no parents, so a planted entry naming a
/// commit whose parents are all present hides the commits behind it (and a key one of them
/// added) from `rev-list`. Only entries whose parents really are missing, the boundary of
/// a real shallow clone, are kept; git is then pointed at a file holding just those
/// (`GIT_SHALLOW_FILE`), and never reads the repository's own: a FIFO planted there would
/// block git's read forever, so keyshape reads it itself, without blocking and bounded.
struct ShallowBoundary {
    /// Entries whose commit is present and some parent is missing (or the commit itself is
    /// missing: git would need the entry to stop there).
    var genuine: [ObjectID] = []
    /// Entries whose commit and every parent are present: ignored.
    var ignored = 0

    /// A shallow file lists one commit a line; 64 MiB is a million and a half entries, far
    /// beyond any real clone's boundary.
    static let maxFileSize = 64 << 20

    /// Reads `file` (absent: not shallow) and checks each entry with one `cat-file`.
    /// - Parameter repository: the path the scan was asked for, for error messages.
    init(git: Git, file: String, repository: String) throws {
        guard let bytes = try ShallowBoundary.read(file, repository: repository) else { return }
        var listed: [ObjectID] = []
        var seen = Set<ObjectID>()
        for line in bytes.split(separator: 0x0A) {
            guard let id = ObjectID(hexBytes: line), seen.insert(id).inserted else { continue }
            listed.append(id)
        }
        if listed.isEmpty { return }
        let reader = CatFileReader(git: git, streaming: false)
        defer { reader.close() }
        var parents: [[ObjectID]?] = Array(repeating: nil, count: listed.count)
        reader.read(listed) { i, result in
            guard case .object(let type, let body) = result, type == "commit" else { return }
            parents[i] = ShallowBoundary.parents(of: body, byteCount: git.oidByteCount)
        }
        let allParents = Array(Set(parents.compactMap { $0 }.joined()))
        var present = Set<ObjectID>()
        // Size 0 skips every object's bytes: `tooLarge` means present, and nothing is read.
        reader.read(allParents, maxSize: 0) { i, result in
            switch result {
            case .object, .tooLarge, .stream: present.insert(allParents[i])
            case .missing, .failed: break
            }
        }
        for (i, id) in listed.enumerated() {
            if let p = parents[i], p.allSatisfy(present.contains) {
                ignored += 1
            } else {
                genuine.append(id)
            }
        }
    }

    /// The file's bytes; nil when it does not exist. Anything but a regular file of bounded
    /// size is an error: git would otherwise block on a FIFO or read a huge file whole.
    static func read(_ path: String, repository: String) throws -> [UInt8]? {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw GitError.unreadable(path: repository, detail: "its shallow file cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw GitError.unreadable(path: repository, detail: "its shallow file is not a regular file")
        }
        guard Int(st.st_size) <= maxFileSize else {
            throw GitError.unreadable(path: repository, detail: "its shallow file is over \(maxFileSize >> 20) MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        let got = bytes.withUnsafeMutableBytes { POSIX.readFully(fd, into: $0) }
        if let failure = got.error {
            throw GitError.unreadable(path: repository, detail: "its shallow file cannot be read: \(String(cString: strerror(failure)))")
        }
        return Array(bytes.prefix(got.count))
    }

    /// The `parent` lines of a commit object's header.
    static func parents(of body: UnsafeRawBufferPointer, byteCount: Int) -> [ObjectID] {
        var out: [ObjectID] = []
        let prefix = Array("parent ".utf8)
        var start = 0
        while start < body.count {
            var end = start
            while end < body.count && body[end] != 0x0A { end += 1 }
            if end == start { break }  // the blank line ending the header
            let line = UnsafeRawBufferPointer(rebasing: body[start..<end])
            if line.starts(with: prefix), let id = ObjectID(hexBytes: Array(line.dropFirst(prefix.count))), Int(id.byteCount) == byteCount {
                out.append(id)
            }
            start = end + 1
        }
        return out
    }

    /// Writes the genuine entries to a private temporary file for git; its path.
    func writeGenuine() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/keyshape-shallow-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw GitError.spawnFailed(command: "git (shallow boundary file)", errno: errno) }
        defer { close(fd) }
        let path = String(cString: template)
        var text = [UInt8]()
        for id in genuine { id.appendHex(to: &text); text.append(0x0A) }
        guard CatFileReader.writeAll(fd, text) else {
            let code = errno
            unlink(path)
            throw GitError.spawnFailed(command: "git (shallow boundary file)", errno: code)
        }
        return path
    }
}
