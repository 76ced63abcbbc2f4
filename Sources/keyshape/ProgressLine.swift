import Foundation
import ScanEngine

/// A `files (or objects) done/total, MB, MB/s` line on stderr, redrawn in place while a
/// scan runs.
/// It prints counts only: never a path (a file name can itself be sensitive) nor content.
final class ProgressLine: @unchecked Sendable {
    private let progress: ScanProgress
    private let started = Date()
    private var thread: Thread?
    private let done = NSCondition()
    private var finished = false

    private let unit: String

    /// - Parameter unit: what is counted: "files" for folders, "objects" for git history.
    init(_ progress: ScanProgress, unit: String = "files") {
        self.progress = progress
        self.unit = unit
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

    func stop() {
        done.lock()
        finished = true
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
        let files = progress.filesDone.load(ordering: .relaxed)
        let total = progress.filesTotal.load(ordering: .relaxed)
        let mb = Double(progress.bytesDone.load(ordering: .relaxed)) / 1_000_000
        let rate = mb / max(0.001, Date().timeIntervalSince(started))
        Terminal.progress("\r\u{1B}[Kkeyshape: \(files)/\(total) \(unit), " + String(format: "%.1f MB, %.0f MB/s", mb, rate))
    }
}
