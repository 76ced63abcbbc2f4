import Archives
import ScanCore
import MatchEngine

/// Archives found by content, opened in place: each member goes through the same
/// `BufferPipeline` as a file would (text: line and column within the member; a binary:
/// format, arch, section and offset within the member, from its own object map), archives
/// inside it recursively to `--max-archive-depth`, and every finding carries one
/// `ProvenanceStep.archiveMember` per level, outermost first, so any input (a file, a git
/// blob) renders it as `App.ipa!Payload/App.app/App:arm64:__TEXT,__cstring+0x314`.
///
/// A member is read whole into one buffer (the pipeline's `ArchiveMemberBuffer`, kept
/// between members and archives) of at most `--max-file-size`, as a file of that size would
/// be bounded: the object map of a Mach-O needs all of it. A larger member is scanned up to
/// that size and is an error entry.
/// The archive itself streams through `Archives` (64 KiB blocks), never extracted.
/// One per worker; not thread-safe.
final class ArchiveMemberScan {
    let pipeline: BufferPipeline
    let options: ScanOptions
    /// The member being scanned: `buffer.bytes[0..<count]`.
    private let buffer: ArchiveMemberBuffer
    private var count = 0

    init(pipeline: BufferPipeline, options: ScanOptions) {
        self.pipeline = pipeline
        self.options = options
        if pipeline.memberBuffer.inUse {
            buffer = ArchiveMemberBuffer()
        } else {
            buffer = pipeline.memberBuffer
        }
        buffer.inUse = true
    }

    deinit { buffer.inUse = false }

    var limits: ArchiveLimits {
        ArchiveLimits(maxExpandedBytes: Int64(options.maxArchiveSize), maxDepth: options.maxArchiveDepth)
    }

    /// What one archive gave besides its findings.
    struct Outcome {
        /// Member bytes scanned (every level's leaves).
        var bytes = 0
        var members = 0
    }

    /// A problem at a member chain (empty: the archive itself), with fixed text.
    typealias ProblemSink = (_ members: [[UInt8]], _ message: String) -> Void

    /// Scans every member of the archive `source` holds, and then what lies outside them in
    /// the source's own bytes (`scanOutside`: headers, directories, comments, padding, what
    /// follows the archive's end, zip entries the directory leaves out), so no byte of an
    /// archive goes unread.
    /// - Parameters:
    ///   - contextPath: the outer input's path; rules and allowlists see a member as
    ///     `path!member!inner`, as it is reported. nil for a git blob, scanned before its
    ///     paths are known (its path conditions are settled later, as for the blob's own).
    ///   - onFinding: a finding with its member steps first, positions within the member; a
    ///     finding outside the members has no member step and a raw place in the source.
    func scan(_ source: ArchiveSource, contextPath: String?, onFinding: (BufferFinding) -> Void,
              onFailure: (RuleFailure, [[UInt8]]) -> Void, onProblem: ProblemSink) -> Outcome {
        let budget = ArchiveBudget(limits: limits)
        var outcome = Outcome()
        /// Reads every member of `reader`; returns its own problems (at its member chain from
        /// `reader` in), those of archives nested in it already reported.
        func walk(_ reader: ArchiveReader, chain: [[UInt8]]) -> [ArchiveProblem] {
            reader.forEachMember { member in
                let names = chain + [pipeline.names.vet(member.name)]
                let head = member.peek(ArchiveKind.headLength)
                if head.withUnsafeBytes({ ArchiveKind.sniff(head: $0, tail: nil, totalSize: nil) }) != nil {
                    let nested = ArchiveReader(source: .member(member), budget: budget, depth: reader.depth + 1)
                    for problem in walk(nested, chain: names) { onProblem(names + problem.members, problem.message) }
                    return
                }
                if !readWhole(member) {
                    onProblem(names, "member is over the \(options.inMemoryLimit)-byte limit of a member read whole; only its first \(options.inMemoryLimit) bytes are scanned")
                }
                outcome.bytes += count
                outcome.members += 1
                let steps = names.map { ProvenanceStep.archiveMember(path: $0) }
                let context = InputPlace(path: contextPath.map { ArchiveMemberScan.path($0, names) })
                let bytes = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])
                let summary = pipeline.scan(whole: bytes, context: context, onFinding: { f in
                    var f = f
                    f.steps = steps + f.steps
                    onFinding(f)
                }, onFailure: { onFailure($0, names) })
                for problem in summary.layoutProblems { onProblem(names, problem) }
            }
        }
        let top = ArchiveReader(source: source, budget: budget)
        let problems = walk(top, chain: [])
        var settled = Set<Int>()
        if let raw = ArchiveRawBytes(source) {
            let outside = scanOutside(top, problems: problems, raw: raw, context: InputPlace(path: contextPath), readEntries: { range, kind in
                // Entries found outside the members are read front to back from their header,
                // as a streaming reader (`bsdtar` from a pipe, `tar --ignore-zeros`) extracts them.
                let reader = ArchiveReader(source: .stream(raw.stream(range)), kind: kind, budget: budget)
                for problem in walk(reader, chain: []) where !ArchiveMemberScan.settledByRawScan(problem.kind) {
                    onProblem(problem.members, problem.message)
                }
                return reader
            }, onFinding: onFinding, onFailure: { onFailure($0, []) })
            settled = outside.settled
            outcome.bytes += outside.bytes
        }
        for (index, problem) in problems.enumerated() where !settled.contains(index) { onProblem(problem.members, problem.message) }
        return outcome
    }

    /// An error entry's path: the outer path, then each member, joined by `!` (names as
    /// text; printers escape them).
    static func path(_ outer: String, _ members: [[UInt8]]) -> String {
        ([outer] + members.map(Location.display)).joined(separator: "!")
    }

    /// Reads `source` into `buffer.bytes[0..<count]`, at most `maxFileSize` bytes; false when
    /// more followed. Straight into the buffer, a read's worth (`readBytes`) at a time, so the
    /// limits are checked as often as before; the buffer is grown once to the size the archive
    /// declares (at most the cap; a lie costs address space, not memory, until bytes arrive)
    /// rather than doubled and copied as bytes come (the staging copy and the regrowth were
    /// about 1% of `scan --jobs 1`'s CPU over the archive benchmark, `perf record`). A member
    /// that fills the buffer exactly is probed for one more byte before the buffer grows: one
    /// of its declared size then takes no second, larger buffer.
    private func readWhole(_ source: ArchiveMember) -> Bool {
        count = 0
        let cap = options.inMemoryLimit
        if let declared = source.declaredSize, declared > 0 {
            buffer.reserve(Int(min(declared, Int64(cap))), keeping: 0, limit: cap)
        }
        while count < cap {
            if count == buffer.bytes.count {
                var probe: UInt8 = 0
                guard withUnsafeMutableBytes(of: &probe, { source.read(into: $0, maxBytes: 1) }) == 1 else { return true }
                buffer.reserve(min(cap, count + ArchiveMemberScan.readBytes), keeping: count, limit: cap)
                buffer.bytes[count] = probe
                count += 1
                continue
            }
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[count..<buffer.bytes.count])
            let got = source.read(into: room, maxBytes: min(cap - count, ArchiveMemberScan.readBytes))
            if got == 0 { return true }
            count += got
        }
        var probe: UInt8 = 0
        return withUnsafeMutableBytes(of: &probe) { source.read(into: $0, maxBytes: 1) } == 0
    }

    /// One read's worth (256 KiB: libarchive hands out at most its own block per call).
    static let readBytes = 256 << 10
}
