import Foundation
#if canImport(Glibc)
import Glibc
#endif
import POSIXIO

/// A long-lived `git cat-file --batch`: object names go in on a writer thread while their
/// contents are read back, so requests stream without a round trip per object. One per
/// worker thread. A missing or corrupt object is reported for that object and the reading
/// goes on; if git dies, it is restarted for the objects that follow.
public final class CatFileReader {
    public enum Result {
        /// The object's bytes; valid only during the callback.
        case object(type: String, bytes: UnsafeRawBufferPointer)
        /// Larger than the limit: skipped unread (its size given).
        case tooLarge(type: String, size: Int)
        /// Larger than `streamAbove`: the callback reads the object's bytes from `stream` in
        /// pieces of its choosing, so no buffer the size of the object is ever needed; what
        /// it leaves unread is skipped. The stream is valid only during the callback.
        case stream(type: String, size: Int, stream: ObjectStream)
        /// git says it is missing (or it could not be unpacked: corrupt).
        case missing
        /// git failed while sending it.
        case failed(String)
    }

    let git: Git
    private var process: Subprocess?
    private var reader: FDReader?
    private var content: UnsafeMutableRawPointer
    private var contentCapacity: Int
    /// keyshape's explanation of the last failure of a git process that ended (for error
    /// messages; never git's own words).
    public private(set) var lastFailure = ""

    /// - Parameter streaming: use `--batch-command --buffer` when git has it (many objects);
    ///   false keeps plain `--batch` and skips asking git's version (a handful of objects).
    public init(git: Git, streaming: Bool = true) {
        self.git = git
        self.streaming = streaming
        contentCapacity = 1 << 20
        content = .allocate(byteCount: contentCapacity, alignment: 64)
    }

    deinit {
        close()
        content.deallocate()
    }

    /// git's cache of rebuilt delta bases for the bulk reader (git's default is 96 MiB). The
    /// history reads a file's versions batch by batch, so a long delta chain is walked again
    /// in later batches once its bases have left a small cache. On git.git, cat-file ran
    /// 12.4 s of CPU for the history's 165,290 blobs in keyshape's order with the default,
    /// 8.5 s with 256 MiB, 8.2 s with 512 MiB and 8.1 s with 1 GiB (the same blobs in pack
    /// order: 9.9 s); its peak resident size (most of it the mapped pack) 415 MB, 593 MB,
    /// 832 MB and 1.3 GB. The memory is git's and grows only as far as chains of large blobs
    /// need it.
    static let deltaBaseCacheLimit = "256m"

    /// `--batch-command --buffer` (git 2.36+): output is written in large blocks and
    /// flushed once per request list instead of once per object.
    private var buffered = true
    private let streaming: Bool

    private func start() throws {
        buffered = streaming && git.versionAtLeast(2, 36)
        let p = try git.spawn(["cat-file"] + (buffered ? ["--batch-command", "--buffer"] : ["--batch"]), stdin: .pipe,
                              config: streaming ? ["core.deltaBaseCacheLimit=" + CatFileReader.deltaBaseCacheLimit] : [])
        Subprocess.enlargePipe(p.stdoutFD)
        process = p
        reader = p.outputReader(coalesce: buffered)
    }

    /// Starts git now rather than at the first read (best effort: a failure is reported by
    /// that read).
    public func open() {
        if process == nil { try? start() }
    }

    /// Ends the git process.
    public func close() {
        if let p = process {
            p.closeStdin()
            p.wait()
        }
        process = nil
        reader = nil
    }

    /// Memory of the caller's that git's output is read straight into, so the objects in it
    /// need no copy (the bulk path: blobs for scanning threads).
    public struct Regions {
        /// Called when the current region lacks room for what comes next, or is `full`: pass a
        /// region of at least `minimum` bytes to `adopt`, then retire the previous one (every
        /// object handed out in it is complete, and nothing more is read into it).
        public var next: (_ minimum: Int, _ adopt: (UnsafeMutableRawPointer, Int) -> Void) -> Void
        /// Whether the caller wants a fresh region before the next object (say, enough objects
        /// in this one).
        public var full: () -> Bool

        public init(next: @escaping (Int, (UnsafeMutableRawPointer, Int) -> Void) -> Void, full: @escaping () -> Bool) {
            self.next = next
            self.full = full
        }
    }

    /// Room a region keeps for the next object's header line.
    static let headerRoom = 4096

    /// One large object's bytes, read straight from git's output.
    public final class ObjectStream {
        private let reader: FDReader
        /// Bytes of the object not read yet.
        public private(set) var remaining: Int
        /// Whether git's output ended inside the object.
        public private(set) var failed = false

        init(reader: FDReader, size: Int) {
            self.reader = reader
            remaining = size
        }

        /// Reads exactly `count` bytes (at most `remaining`) into `destination`; false if
        /// git's output ended first.
        public func read(into destination: UnsafeMutableRawPointer, count: Int) -> Bool {
            precondition(count <= remaining, "read past the object")
            guard !failed, reader.read(exactly: count, into: destination) else { failed = true; return false }
            remaining -= count
            return true
        }

        /// Skips what was not read, and the newline git puts after the object.
        func finish() -> Bool {
            guard !failed, reader.skip(remaining + 1) else { return false }
            remaining = 0
            return true
        }
    }

    /// Reads `ids` in order, calling `each(index, result)` for every one of them.
    /// - Parameters:
    ///   - regions: where to read; an object's bytes then stay valid in its region after
    ///     `each` returns. By default an internal buffer that the next object reuses.
    ///   - streamAbove: objects larger than this (and within `maxSize`) come as `.stream`,
    ///     read by `each` in bounded pieces instead of into one buffer of their size.
    public func read(_ ids: [ObjectID], maxSize: Int = .max, streamAbove: Int = .max, regions: Regions? = nil,
                     each: (Int, Result) -> Void) {
        var next = 0
        defer { reader?.disown() }
        while next < ids.count {
            if process == nil {
                do { try start() } catch {
                    for i in next..<ids.count { each(i, .failed("\(error)")) }
                    return
                }
            }
            let p = process!, r = reader!
            // The writer: its own thread, so a full pipe on either side cannot deadlock.
            var request = [UInt8]()
            request.reserveCapacity((ids.count - next) * (buffered ? 74 : 66) + 6)
            // Made once, not once per object (15,000 objects in a psf/requests history).
            let command: [UInt8] = buffered ? Array("contents ".utf8) : []
            for id in ids[next...] {
                request += command
                id.appendHex(to: &request)
                request.append(0x0A)
            }
            if buffered { request += Array("flush\n".utf8) }
            let writerDone = DispatchSemaphore(value: 0)
            let fd = p.stdinFD
            if request.count <= 32 << 10 {
                // Fits in the pipe: written at once, no writer thread needed.
                _ = CatFileReader.writeAll(fd, request)
                writerDone.signal()
            } else {
                let bytes = request
                Thread.detachNewThread {
                    _ = CatFileReader.writeAll(fd, bytes)
                    writerDone.signal()
                }
            }
            var broken = false
            while next < ids.count {
                if let regions, !r.isAdopted || r.room < CatFileReader.headerRoom || regions.full() {
                    regions.next(r.pending + CatFileReader.headerRoom) { r.adopt($0, capacity: $1) }
                }
                guard let header = r.withToken(0x0A, CatFileReader.header) else { broken = true; break }
                if header == .missing {
                    each(next, .missing)
                    next += 1
                    continue
                }
                guard case .object(let type, let size) = header else { broken = true; break }
                if size > maxSize {
                    guard r.skip(size + 1) else { broken = true; break }
                    each(next, .tooLarge(type: type, size: size))
                    next += 1
                    continue
                }
                if size > streamAbove {
                    // Out of the caller's region: the bytes go where the callback puts them, and
                    // the next object starts a fresh region.
                    r.disown()
                    let stream = ObjectStream(reader: r, size: size)
                    each(next, .stream(type: type, size: size, stream: stream))
                    guard stream.finish() else { broken = true; break }
                    next += 1
                    continue
                }
                if let regions {
                    if r.room < size + 1 { regions.next(size + 1 + CatFileReader.headerRoom) { r.adopt($0, capacity: $1) } }
                    guard let bytes = r.take(size + 1) else { broken = true; break }
                    each(next, .object(type: type, bytes: UnsafeRawBufferPointer(start: bytes.baseAddress, count: size)))
                    next += 1
                    continue
                }
                if size > contentCapacity {
                    content.deallocate()
                    contentCapacity = max(size, contentCapacity * 2)
                    content = .allocate(byteCount: contentCapacity, alignment: 64)
                }
                guard r.read(exactly: size, into: content), r.skip(1) else { broken = true; break }
                each(next, .object(type: type, bytes: UnsafeRawBufferPointer(start: content, count: size)))
                next += 1
            }
            writerDone.wait()
            if broken {
                // git died (or spoke nonsense) while sending ids[next]: report that one, restart for the rest.
                p.closeStdin()
                p.terminate()
                let status = p.wait()
                lastFailure = p.stderrReason
                process = nil
                reader = nil
                if next < ids.count {
                    each(next, .failed("git cat-file --batch failed (exit \(status))" + (lastFailure.isEmpty ? "" : ": \(lastFailure)")))
                    next += 1
                }
            }
        }
    }

    enum Header: Equatable {
        case object(type: String, size: Int)
        case missing
        /// Not a header git writes: the output is out of step.
        case bad
    }

    /// `<id> <type> <size>`, or `<id> missing` / `<id> ambiguous`, read in place: the line
    /// copied to an array and split into another cost two allocations per object.
    static func header(_ line: UnsafeRawBufferPointer) -> Header {
        // The first four fields (runs between spaces, empty runs skipped, as `split` does; a
        // fourth is as bad as too few), kept in locals: no array.
        var count = 0
        var f0 = 0..<0, f1 = 0..<0, f2 = 0..<0
        var i = 0
        while i < line.count && count < 4 {
            while i < line.count && line[i] == 0x20 { i += 1 }
            let start = i
            while i < line.count && line[i] != 0x20 { i += 1 }
            guard i > start else { continue }
            switch count { case 0: f0 = start..<i; case 1: f1 = start..<i; case 2: f2 = start..<i; default: break }
            count += 1
        }
        func field(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: line[range]) }
        guard count >= 2, ObjectID.parse(field(f0)) != nil else { return .bad }
        let second = field(f1)
        if second.elementsEqual("missing".utf8) || second.elementsEqual("ambiguous".utf8) { return .missing }
        guard count == 3, let size = Int(String(decoding: field(f2), as: UTF8.self)), size >= 0 else { return .bad }
        return .object(type: String(decoding: second, as: UTF8.self), size: size)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool { POSIX.writeAll(fd, bytes) == nil }

    /// One object's bytes, copied (small reads: staged files, tests).
    public func readObject(_ id: ObjectID, maxSize: Int = .max) -> (type: String, bytes: [UInt8])? {
        var out: (String, [UInt8])?
        read([id], maxSize: maxSize) { _, result in
            if case .object(let type, let bytes) = result { out = (type, Array(bytes)) }
        }
        return out
    }
}
