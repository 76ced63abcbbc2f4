/// What one top-level archive may still cost, shared by every reader nested inside it, so
/// the size and member limits bound the whole tree (a 42.zip-style bomb) and not each level.
///
/// Bytes are charged at every level: a jar inside an apk counts once as the apk's member and
/// again as the jar's members, because both are decompression work done.
///
/// Not thread-safe: one top-level archive and everything nested in it is read by one thread.
public final class ArchiveBudget {
    public let limits: ArchiveLimits
    public private(set) var expandedBytes: Int64 = 0
    public private(set) var members = 0
    /// A shared limit (size or member count) was reached: every level stops reading. The
    /// problem is reported once, by the level that reached it.
    public var isExhausted: Bool { exhaustedBy != nil }
    /// Which limit stopped the reading.
    public private(set) var exhaustedBy: ArchiveProblem.Kind?

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    /// Charges up to `count` expanded bytes; returns how many fit (fewer means exhausted).
    func charge(_ count: Int) -> Int {
        let room = max(0, limits.maxExpandedBytes - expandedBytes)
        let granted = Int(min(Int64(count), room))
        expandedBytes += Int64(granted)
        if granted < count, exhaustedBy == nil { exhaustedBy = .sizeLimit }
        return granted
    }

    /// Counts one more problem; false (and exhausted) once there are more than
    /// `limits.maxProblems`: a bomb of thousands of bad members is one error too many.
    func admitProblem() -> Bool {
        problems += 1
        guard problems <= limits.maxProblems else {
            if exhaustedBy == nil { exhaustedBy = .problemLimit }
            return false
        }
        return true
    }

    public private(set) var problems = 0

    /// Counts one more member; false (and exhausted) past the limit.
    func admitMember() -> Bool {
        guard members < limits.maxMembers else {
            if exhaustedBy == nil { exhaustedBy = .memberLimit }
            return false
        }
        members += 1
        return true
    }
}
