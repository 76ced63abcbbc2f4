/// What the archive fuzz harness checks on every input, here so the seed replay test runs
/// exactly the same checks: reading any bytes ends, never traps, stays inside the limits,
/// and every chunk is no larger than asked for.
public enum ArchivesFuzzChecks {
    public static let limits = ArchiveLimits(maxExpandedBytes: 8 << 20, ratioFloorBytes: 64 << 10,
                                             maxMembers: 1_000, maxDepth: 3, readBlockBytes: 4096)

    /// Reads `bytes` as an archive whatever its magic says (and as what the sniffer says),
    /// nested archives included; returns the members read, for the replay test's counts.
    @discardableResult
    public static func check(_ bytes: [UInt8]) -> Int {
        var members = 0
        let sniffed = ArchiveKind.sniff(bytes)
        let kinds: [ArchiveKind?] = [sniffed] + (sniffed == nil ? [.zip, .tar] : [])
        for kind in kinds {
            let budget = ArchiveBudget(limits: limits)
            members += walk(ArchiveReader(source: .bytes(bytes), kind: kind, budget: budget), budget: budget)
            precondition(budget.expandedBytes <= limits.maxExpandedBytes)
            precondition(budget.members <= limits.maxMembers)
        }
        return members
    }

    private static func walk(_ reader: ArchiveReader, budget: ArchiveBudget) -> Int {
        var members = 0
        var buffer = [UInt8](repeating: 0, count: 1000)
        let problems = reader.forEachMember { member in
            members += 1
            let head = member.peek(ArchiveKind.headLength)
            precondition(head.count <= ArchiveKind.headLength)
            if head.withUnsafeBytes({ ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) }) != nil {
                members += walk(ArchiveReader(source: .member(member), budget: budget, depth: reader.depth + 1), budget: budget)
                return
            }
            var total = 0
            while true {
                let got = buffer.withUnsafeMutableBytes { member.read(into: $0, maxBytes: 777) }
                precondition(got >= 0 && got <= 777)
                if got == 0 { break }
                total += got
            }
            precondition(Int64(total) == member.bytesRead)
            _ = member.displayName
        }
        precondition(problems.count <= limits.maxProblems + 1)
        for problem in problems { _ = problem.description }
        return members
    }
}
