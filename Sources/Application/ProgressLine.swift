import Foundation
import ScanPipeline

/// A progress line on stderr, redrawn in place while a scan runs: a bar of the share done,
/// then for folders `files done/total, MB read/listed, MB/s, ETA`; for history `commits
/// done/total, blobs done/total, MB, MB/s, ETA` (the commit total comes first, from git's
/// commit listing; the blob total grows while the listing runs, since blobs are found by
/// reading the commits' changes). The share, and the ETA extrapolated from it, go by the
/// listed files' bytes (folders) or the commits (history).
/// It prints counts and keyshape's own labels only: never a path (a file name can itself
/// be sensitive), a ref name, nor content.
public final class ProgressLine: @unchecked Sendable {
    private let progress: ScanProgress
    private let started = Date()
    private var thread: Thread?
    private let done = NSCondition()
    private var finished = false

    public enum Kind { case files, history }
    private let kind: Kind
    /// A part's name before the counts (`audit`: sources, history, products).
    private let label: String?

    /// Where the redraws go (the run's stderr, raw).
    private let write: (String) -> Void

    init(_ progress: ScanProgress, kind: Kind = .files, label: String? = nil, write: @escaping (String) -> Void) {
        self.write = write
        self.progress = progress
        self.kind = kind
        self.label = label
    }

    public func start() {
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
    public func stop() {
        done.lock()
        finished = true
        draw()
        done.signal()
        done.unlock()
        write("\r\u{1B}[K")
    }

    /// Runs `body` (a write to stdout) with the progress line erased and not redrawn
    /// meanwhile, so a streamed finding never lands on the progress line.
    func clearedWhile(_ body: () -> Void) {
        done.lock()
        defer { done.unlock() }
        write("\r\u{1B}[K")
        body()
    }

    private func draw() {
        write("\r\u{1B}[K" + text(elapsed: Date().timeIntervalSince(started)))
    }

    /// The line's text (without the redraw codes): a bar of the share done, then the counts.
    func text(elapsed: TimeInterval) -> String {
        let files = progress.filesDone.load(ordering: .relaxed)
        let total = progress.filesTotal.load(ordering: .relaxed)
        let mb = Double(progress.bytesDone.load(ordering: .relaxed)) / 1_000_000
        let rate = mb / max(0.001, elapsed)
        var parts: [String] = []
        let share: Double?
        switch kind {
        case .files:
            // By bytes: the largest files go first, so by file count a scan looked hours from
            // done for most of its run.
            let bytesTotal = progress.bytesTotal.load(ordering: .relaxed)
            let inputDone = progress.inputBytesDone.load(ordering: .relaxed)
            share = bytesTotal > 0 ? min(1, Double(inputDone) / Double(bytesTotal)) : (total > 0 ? Double(files) / Double(total) : nil)
            parts.append("\(files)/\(total) \(total == 1 ? "file" : "files")")
            parts.append(bytesTotal > 0 ? String(format: "%.1f/%.1f MB", Double(inputDone) / 1_000_000, Double(bytesTotal) / 1_000_000)
                                        : String(format: "%.1f MB", mb))
        case .history:
            let commits = progress.commitsDone.load(ordering: .relaxed)
            let commitTotal = progress.commitsTotal.load(ordering: .relaxed)
            parts.append(commitTotal > 0 ? "commits \(commits)/\(commitTotal)" : "commits \(commits)")
            parts.append("blobs \(files)/\(total)")
            share = commitTotal > 0 ? Double(min(commits, commitTotal)) / Double(commitTotal) : nil
            parts.append(String(format: "%.1f MB", mb))
        }
        parts.append(String(format: "%.0f MB/s", rate))
        if let eta = ProgressLine.eta(share: share, elapsed: elapsed) { parts.append("ETA " + eta) }
        let bar = share.map { ProgressLine.bar($0) + " " } ?? ""
        return "keyshape: " + (label.map { $0 + ": " } ?? "") + bar + parts.joined(separator: ", ")
    }

    /// `[=========>          ]  45%`: 20 cells, so the line stays within 80 columns.
    static func bar(_ share: Double, width: Int = 20) -> String {
        let s = min(1, max(0, share))
        let filled = Int((s * Double(width)).rounded(.down))
        let head = filled < width && s > 0 ? ">" : ""
        let body = String(repeating: "=", count: filled) + head
        let percent = Int((s * 100).rounded(.down))
        let padded = percent < 10 ? "  \(percent)" : (percent < 100 ? " \(percent)" : "\(percent)")
        return "[" + body + String(repeating: " ", count: max(0, width - body.count)) + "] " + padded + "%"
    }

    /// The time left at the rate so far, or nil while that rate says little: before 2 s and
    /// 1% of the work (the first files' cost is mostly start-up), and once done.
    static func eta(share: Double?, elapsed: TimeInterval) -> String? {
        guard let share, share >= 0.01, share < 1, elapsed >= 2 else { return nil }
        return duration(elapsed * (1 - share) / share)
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

extension RunContext {
    /// A progress line for `progress` when `--progress` asks for one, or (neither
    /// `--progress` nor `--no-progress` given) stderr is a terminal; else nil.
    func progressLine(_ report: ReportFlags, _ progress: ScanProgress, kind: ProgressLine.Kind = .files, label: String? = nil) -> ProgressLine? {
        guard report.progress ?? stderrIsTerminal else { return nil }
        return ProgressLine(progress, kind: kind, label: label, write: redraw)
    }
}
