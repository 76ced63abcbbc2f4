import CArchive

/// One regular file inside an archive, readable only inside the `forEachMember` body that
/// handed it out. Its bytes come in chunks the caller's buffer bounds; nothing of it is kept.
///
/// `name` is the entry's name as the archive stores it: data, never a path on this machine
/// (keyshape extracts nothing, so `../../etc/passwd` names nothing here). Print it through
/// `displayName` (escaped).
public final class ArchiveMember {
    public let name: [UInt8]
    /// The size the archive declares, when it declares one (it may lie: reads are bounded by
    /// the limits, not by this).
    public let declaredSize: Int64?
    /// The entry's position in its archive, counting every entry from 0.
    public let index: Int
    /// Expanded bytes handed out so far.
    public private(set) var bytesRead: Int64 = 0
    /// Why reading stopped before the member's end, when it did.
    public private(set) var problem: ArchiveProblem?

    unowned let session: ArchiveSession
    private(set) var atEnd = false
    private var closed = false
    private var deliveredAtStart: Int64

    init(name: [UInt8], declaredSize: Int64?, index: Int, session: ArchiveSession) {
        self.name = name
        self.declaredSize = declaredSize
        self.index = index
        self.session = session
        self.deliveredAtStart = session.cursor.delivered
    }

    public var displayName: String { DisplayText.escaped(bytes: name) }

    /// Reads the next chunk of at most `maxBytes` (and the buffer's size) into `buffer`;
    /// returns its length, 0 at the member's end or when a problem stopped it (`problem`).
    public func read(into buffer: UnsafeMutableRawBufferPointer, maxBytes: Int = .max) -> Int {
        guard !closed, let base = buffer.baseAddress else { return 0 }
        let want = min(buffer.count, maxBytes)
        guard want > 0 else { return 0 }
        if pendingStart < pending.count {
            let count = min(want, pending.count - pendingStart)
            pending.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: count) }
            pendingStart += count
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            return count
        }
        return readFromArchive(base, want)
    }

    /// The member's next bytes (at most `count`, fewer at its end) without consuming them: the
    /// following reads return them again. For sniffing a member's magic number before deciding
    /// how to read it (a nested archive, a binary, text).
    public func peek(_ count: Int) -> [UInt8] {
        guard !closed else { return [] }
        var chunk = [UInt8](repeating: 0, count: min(max(0, count), 1 << 20))
        while pending.count - pendingStart < count {
            let need = count - (pending.count - pendingStart)
            let got = chunk.withUnsafeMutableBytes { readFromArchive($0.baseAddress!, min(need, $0.count)) }
            if got == 0 { break }
            pending += chunk[0..<got]
        }
        return Array(pending[pendingStart..<min(pending.count, pendingStart + count)])
    }

    private var pending: [UInt8] = []
    private var pendingStart = 0

    private func readFromArchive(_ base: UnsafeMutableRawPointer, _ want: Int) -> Int {
        guard !atEnd, problem == nil else { return 0 }
        if session.budget.isExhausted { return stop(nil) }
        var got: Int
        repeat {
            got = archive_read_data(session.handle, base, want)
        } while got == Int(ARCHIVE_RETRY)
        if got == 0 {
            atEnd = true
            return 0
        }
        if got < 0 {
            if got == Int(ARCHIVE_FATAL) { session.isFatal = true }
            return stop(session.problem(from: got, member: name))
        }
        let granted = session.budget.charge(got)
        bytesRead += Int64(granted)
        if granted < got {
            // This level reached the shared limit: it reports it; the others stop quietly.
            let limit = ArchiveProblem(.sizeLimit, member: name)
            problem = limit
            session.record(limit)
            return granted
        }
        let limits = session.budget.limits
        // The member's compressed bytes are what the source delivered since its header, plus
        // up to one read window delivered before it that its data may have begun in: without
        // that window a 97 KB gzip of a 3.6 MB JSON file (37:1 overall) measured 109:1 once
        // its last 33 KB arrived and was stopped as a bomb. The slack delays a real bomb's stop
        // by at most one window times the ratio (6.4 MiB of output at the defaults).
        let compressed = max(1, session.cursor.delivered - deliveredAtStart
                                + min(Int64(limits.readBlockBytes), deliveredAtStart))
        if bytesRead > limits.ratioFloorBytes, bytesRead / compressed > limits.maxCompressionRatio {
            // These bytes are still handed out (they were read and counted); the next read ends.
            session.memberStoppedEarly = true
            _ = stop(ArchiveProblem(.ratioLimit, member: name))
        }
        return granted
    }

    /// Records why reading stopped (nil: a limit another level reached and reported).
    private func stop(_ problem: ArchiveProblem?) -> Int {
        if let problem {
            self.problem = problem
            if problem.kind == .sizeLimit || problem.kind == .ratioLimit || !session.cursor.failed {
                session.record(problem)
            }
        } else {
            self.problem = ArchiveProblem(session.budget.exhaustedBy ?? .sizeLimit, member: name)
        }
        return 0
    }

    /// After the body: the rest of the member is read and discarded where skipping would
    /// decompress it anyway (so the limits count that work too), else skipped.
    func finish(scratch: UnsafeMutableRawBufferPointer) {
        defer { closed = true }
        guard !closed, !atEnd, problem == nil else { return }
        pending = []
        if session.canSkipCheaply {
            if archive_read_data_skip(session.handle) == ARCHIVE_FATAL {
                session.isFatal = true
                problem = session.problem(from: Int(ARCHIVE_FATAL), member: name)
                if let problem { session.record(problem) }
            }
            return
        }
        while readFromArchive(scratch.baseAddress!, scratch.count) > 0 {}
    }
}

import ScanCore
