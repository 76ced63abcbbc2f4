import Foundation
import GitHistory
import ScanCore

/// Where a history run keeps the position of its commit walk as it goes, so that a run
/// killed mid-way is resumed by the next one instead of walked again (the datastore's,
/// set by the executable). Commits are named by their raw id bytes, as blobs are in
/// `BlobScanStore`.
///
/// Called from the attributing thread only, once per batch, after the batch's findings went
/// to `HistoryScanner.sink`: a commit logged as attributed has its findings with the sink.
public protocol CommitWalkLog: AnyObject, Sendable {
    /// Commits an earlier run of this same walk (same repository, rules and starting commits)
    /// attributed before it was killed: this run neither reads their blobs nor attributes them.
    var resumedCommits: [[UInt8]] { get }
    /// The commits of a batch just attributed, and the walk's issues that arose with it.
    /// Only called while every issue of the walk so far is one a blob's bytes give under these
    /// rules (`HistoryScanner.repeatableIssues`): past any other, nothing more is logged, so
    /// a resumed run walks those commits again and meets the problem itself.
    func attributed(_ commits: [[UInt8]], issues: [ScanIssue])
}

extension CommitWalkLog {
    /// `resumedCommits` as ids (a malformed entry names no commit and is left out).
    func resumedIDs() -> Set<ObjectID> {
        var ids = Set<ObjectID>()
        let digits = Array("0123456789abcdef".utf8)
        for raw in resumedCommits where raw.count == 20 || raw.count == 32 {
            var hex: [UInt8] = []
            hex.reserveCapacity(raw.count * 2)
            for b in raw { hex.append(digits[Int(b >> 4)]); hex.append(digits[Int(b & 15)]) }
            if let id = ObjectID(hexBytes: hex) { ids.insert(id) }
        }
        return ids
    }
}

/// The count of commits a resumed walk skipped: added to on the reading thread, read by the
/// attributing thread once the reading is over.
final class ResumedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ n: Int) {
        lock.lock()
        count += n
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
