import Foundation
import ScanPipeline

/// A progress line on stderr, redrawn in place while a scan runs: for folders
/// `files done/total, MB, MB/s, ETA`; for history `commits done/total, blobs done/total,
/// MB, MB/s, ETA` (the commit total comes first, from git's commit listing; the blob total
/// grows while the listing runs, since blobs are found by reading the commits' changes).
/// The ETA is extrapolated from the share of commits (history) or files (folders) done.
/// It prints counts and keyshape's own labels only: never a path (a file name can itself
/// be sensitive), a ref name, nor content.
final class ProgressLine: @unchecked Sendable {
    private let progress: ScanProgress
    private let started = Date()
    private var thread: Thread?
    private let done = NSCondition()
    private var finished = false

    enum Kind { case files, history }
    private let kind: Kind
    /// A part's name before the counts (`audit`: sources, history, products).
    private let label: String?

    init(_ progress: ScanProgress, kind: Kind = .files, label: String? = nil) {
        self.progress = progress
        self.kind = kind
        self.label = label
    }

    func start() {
        let t = Thread { [self] in
            done.lock()
            while !finished {
                _ = done.wait(until: Date().addingTimeInterval(0.25))
                if finished { break }
                draw()
            }
            done.unlock()
        }
        thread = t
        t.start()
    }

    /// Draws the final counts once (a log that keeps every redraw, `--progress` into a
    /// file, ends on the totals even for a scan shorter than one redraw), then erases the line.
    func stop() {
        done.lock()
        finished = true
        draw()
        done.signal()
        done.unlock()
        Terminal.progress("\r\u{1B}[K")
    }

    /// Runs `body` (a write to stdout) with the progress line erased and not redrawn
    /// meanwhile, so a streamed finding never lands on the progress line.
    func clearedWhile(_ body: () -> Void) {
        done.lock()
        defer { done.unlock() }
        Terminal.progress("\r\u{1B}[K")
        body()
    }

    private func draw() {
        Terminal.progress("\r\u{1B}[K" + text(elapsed: Date().timeIntervalSince(started)))
    }

    /// The line's text (without the redraw codes).
    func text(elapsed: TimeInterval) -> String {
        let files = progress.filesDone.load(ordering: .relaxed)
        let total = progress.filesTotal.load(ordering: .relaxed)
        let mb = Double(progress.bytesDone.load(ordering: .relaxed)) / 1_000_000
        let rate = mb / max(0.001, elapsed)
        var parts: [String] = []
        let share: Double?
        switch kind {
        case .files:
            parts.append("\(files)/\(total) files")
            share = total > 0 ? Double(files) / Double(total) : nil
        case .history:
            let commits = progress.commitsDone.load(ordering: .relaxed)
            let commitTotal = progress.commitsTotal.load(ordering: .relaxed)
            parts.append(commitTotal > 0 ? "commits \(commits)/\(commitTotal)" : "commits \(commits)")
            parts.append("blobs \(files)/\(total)")
            share = commitTotal > 0 ? Double(min(commits, commitTotal)) / Double(commitTotal) : nil
        }
        parts.append(String(format: "%.1f MB", mb))
        parts.append(String(format: "%.0f MB/s", rate))
        if let share, share > 0, share < 1 {
            parts.append("ETA " + ProgressLine.duration(elapsed * (1 - share) / share))
        }
        return "keyshape: " + (label.map { $0 + ": " } ?? "") + parts.joined(separator: ", ")
    }

    /// `45s`, `3m05s`, `2h07m`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(min(seconds, 359_999).rounded())
        if s < 60 { return "\(s)s" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if s < 3600 { return "\(s / 60)m\(two(s % 60))s" }
        return "\(s / 3600)h\(two(s / 60 % 60))m"
    }
}
