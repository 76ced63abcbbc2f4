import Foundation
import POSIXIO

/// One `git diff-tree --stdin` of several run side by side (`CommitLog`): the chunks of the
/// commit list dealt to it go in on a writer thread, and a reader thread parses what it
/// sends back into whole chunks of commits with their changes, a few chunks ahead of the
/// consumer.
///
/// Each chunk of commit lines is followed by a line git does not take for a commit
/// (`\x02`), which `diff-tree --stdin` echoes as it is at exactly that place in its output,
/// so a chunk's end is found by the parser without counting commits (a commit with no
/// change prints nothing).
///
/// No deadlock whatever the speeds: the feed is unbounded (the whole commit list is a few
/// MiB even for git.git), so the dispatcher never waits for a process; each reader waits
/// only for its own process and for the consumer, which takes chunks in order.
final class DiffTreeShard: @unchecked Sendable {
    let process: Subprocess
    private let condition = NSCondition()
    /// Chunks of `rev-list` lines not written yet.
    private var feed: [[UInt8]] = []
    private var feedClosed = false
    /// Parsed chunks (or pieces of chunks) not taken yet: at most `ahead`, and no more once
    /// they hold `aheadChanges` changed paths.
    private var parsed: [Chunk] = []
    private var parsedChanges = 0
    private let maxChangesPerCommit: Int
    private var cancelled = false
    /// Chunks sent, and chunks whose end marker came back: while they are equal, git is
    /// waiting for keyshape (the watchdog leaves it alone).
    private var sentChunks = 0
    private var answeredChunks = 0
    private let writerDone = DispatchSemaphore(value: 0)
    private let readerDone = DispatchSemaphore(value: 0)

    /// Parsed chunks kept ready per process: enough that a process never waits while the
    /// consumer works through another one's chunk, few enough that memory stays small.
    static let ahead = 3
    /// Changed paths kept ready per process (a history of huge commits keeps memory as flat
    /// as one of small ones: the parser hands them over in pieces of `pieceChanges`).
    static let aheadChanges = 100_000
    static let pieceChanges = 50_000
    /// The line after each chunk.
    static let marker: [UInt8] = [0x02, 0x0A]

    enum Chunk {
        /// `complete`: the chunk's marker was read (else git's output ended inside it).
        case commits([CommitChanges], complete: Bool)
        /// git's output ended (no more chunks from this process).
        case end
        case failed(GitError)
    }

    init(git: Git, arguments: [String], maxChangesPerCommit: Int = CommitLog.defaultMaxChangesPerCommit) throws {
        self.maxChangesPerCommit = maxChangesPerCommit
        process = try git.spawn(arguments, stdin: .pipe, dataLimit: CommitLog.diffTreeDataLimit(maxChangesPerCommit))
        Subprocess.enlargePipe(process.stdoutFD)
        let fd = process.stdinFD
        Thread.detachNewThread { [self] in writeFeed(fd) }
        process.watch.owesOutput = { [weak self] in
            guard let self else { return true }
            condition.lock(); defer { condition.unlock() }
            return sentChunks > answeredChunks
        }
        let reader = process.outputReader()
        Thread.detachNewThread { [self] in readChunks(reader) }
    }

    /// Queues a chunk of `rev-list --parents` lines (each ending in a newline).
    func send(_ lines: [UInt8]) {
        condition.lock()
        feed.append(lines + DiffTreeShard.marker)
        sentChunks += 1
        condition.broadcast()
        condition.unlock()
    }

    /// No more chunks: git's stdin is closed once the queued ones are written.
    func closeFeed() {
        condition.lock()
        feedClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk of this process, in the order they were sent.
    func take() -> Chunk {
        condition.lock()
        defer { condition.unlock() }
        while parsed.isEmpty { condition.wait() }
        let c = parsed.removeFirst()
        parsedChanges -= DiffTreeShard.weight(c)
        if case .commits = c {} else { parsed.insert(c, at: 0) }  // the end stays the end
        condition.broadcast()
        return c
    }

    /// Ends git and both threads (a stopped scan).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        process.terminate()
    }

    /// Waits for the threads and git; git's exit status.
    func wait() -> Int32 {
        writerDone.wait()
        readerDone.wait()
        return process.wait()
    }

    private func writeFeed(_ fd: Int32) {
        defer { writerDone.signal() }
        var failed = false
        while true {
            condition.lock()
            while feed.isEmpty && !feedClosed && !cancelled { condition.wait() }
            if cancelled || feed.isEmpty {
                condition.unlock()
                break
            }
            let chunk = feed.removeFirst()
            condition.unlock()
            // git gone (it failed, or was ended): the rest is dropped; its status tells why.
            if !failed && POSIX.writeAll(fd, chunk) != nil { failed = true }
        }
        process.closeStdin()
    }

    private func put(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !parsed.isEmpty && (parsed.count >= DiffTreeShard.ahead || parsedChanges >= DiffTreeShard.aheadChanges) && !cancelled {
            condition.wait()
        }
        if cancelled { return false }
        parsedChanges += DiffTreeShard.weight(chunk)
        if case .commits(_, complete: true) = chunk { answeredChunks += 1 }
        parsed.append(chunk)
        condition.broadcast()
        return true
    }

    private func readChunks(_ reader: FDReader) {
        defer { readerDone.signal() }
        var parser = DiffTreeParser(reader: reader)
        parser.maxChangesPerCommit = maxChangesPerCommit
        parser.pieceChanges = DiffTreeShard.pieceChanges
        while true {
            do {
                let (commits, end) = try parser.chunk()
                if !commits.isEmpty || end == .marker {
                    // A piece is a chunk not complete yet: the consumer takes its next part from
                    // this process again.
                    if !put(.commits(commits, complete: end == .marker)) { return }
                }
                // Output that ends without a marker: git ended (its status says why, and the
                // commit log sees fewer chunks than it dealt).
                if end == .eof {
                    _ = put(.end)
                    return
                }
            } catch let error as GitError {
                _ = put(.failed(error))
                process.terminate()
                return
            } catch {
                _ = put(.failed(.unexpectedOutput(command: "git diff-tree", detail: "\(error)")))
                process.terminate()
                return
            }
        }
    }

    static func weight(_ chunk: Chunk) -> Int {
        guard case .commits(let commits, _) = chunk else { return 0 }
        return commits.reduce(0) { $0 + $1.changes.count }
    }
}
