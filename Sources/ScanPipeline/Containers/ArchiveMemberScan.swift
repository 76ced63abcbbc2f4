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
/// Each member is an input of its own to the front (`InputFront`, `InputBytes.member`),
/// which decides by its first bytes whether it is an archive too (then it is read here,
/// nested, under the same budget) and otherwise reads it whole into one buffer (the
/// pipeline's `ArchiveMemberBuffer`, kept between members and archives) of at most
/// `--max-file-size`, as a file of that size would be bounded: the object map of a Mach-O
/// needs all of it. A larger member is scanned up to that size and is an error entry.
/// The archive itself streams through `Archives` (64 KiB blocks), never extracted.
/// One per worker; not thread-safe.
final class ArchiveMemberScan {
    let front: InputFront
    /// The stage this reads for: a member it claims is an archive nested in this one, read
    /// by this walk under the same budget.
    let stage: ArchiveStage
    var pipeline: BufferPipeline { front.pipeline }
    var options: ScanOptions { front.options }
    /// What members are read into.
    private let buffer: ArchiveMemberBuffer

    init(front: InputFront, stage: ArchiveStage) {
        self.front = front
        self.stage = stage
        let pipeline = front.pipeline
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

    /// Scans every member of the archive `input` holds, and then what lies outside them in
    /// the source's own bytes (`scanOutside`: headers, directories, comments, padding, what
    /// follows the archive's end, zip entries the directory leaves out), so no byte of an
    /// archive goes unread.
    ///
    /// A self-extractor's bytes outside its members (`input.opening` `.membersAndBytes`) are
    /// the front's to scan, as the input's own. Rules and allowlists see a member as
    /// `path!member!inner`, as it is reported. What is found goes to `sink`: a member's
    /// finding with its member steps first, positions within the member; a finding outside
    /// the members with no member step and a raw place in the source; rule failures and
    /// problems at their member chains (empty: the archive's own bytes).
    func scan(_ input: ContainerInput, sink: InputFront.Sink) -> Outcome {
        let budget = ArchiveBudget(limits: limits)
        var outcome = Outcome()
        /// Reads every member of `reader`; returns its own problems (at its member chain from
        /// `reader` in), those of archives nested in it already reported.
        func walk(_ reader: ArchiveReader, chain: [[UInt8]]) -> [ArchiveProblem] {
            reader.forEachMember { member in
                let names = chain + [pipeline.names.vet(member.name)]
                let scanned = front.scanMember(.member(member, buffer: buffer), names: names, path: input.path, depth: reader.depth,
                                               reader: stage, sink: sink)
                if scanned.openedBy === stage {
                    let nested = ArchiveReader(source: .member(member), budget: budget, depth: reader.depth + 1)
                    for problem in walk(nested, chain: names) { sink.onProblem(names + problem.members, problem.message) }
                    return
                }
                outcome.bytes += scanned.archiveBytes
                outcome.members += 1
            }
        }
        let top = ArchiveReader(source: input.source, budget: budget, depth: input.depth)
        let problems = walk(top, chain: [])
        var settled = Set<Int>()
        if let raw = ArchiveRawBytes(input.source) {
            let outside = scanOutside(top, opening: input.opening, problems: problems, raw: raw, context: InputPlace(path: input.path),
                                      readEntries: { range, kind in
                // Entries found outside the members are read front to back from their header,
                // as a streaming reader (`bsdtar` from a pipe, `tar --ignore-zeros`) extracts them.
                let reader = ArchiveReader(source: .stream(raw.stream(range)), kind: kind, budget: budget, depth: input.depth)
                for problem in walk(reader, chain: []) where !ArchiveMemberScan.settledByRawScan(problem.kind) {
                    sink.onProblem(problem.members, problem.message)
                }
                return reader
            }, onFinding: sink.onFinding, onFailure: { sink.onFailure($0, .archive(members: [])) })
            settled = outside.settled
            outcome.bytes += outside.bytes
        }
        for (index, problem) in problems.enumerated() where !settled.contains(index) { sink.onProblem(problem.members, problem.message) }
        return outcome
    }

    /// An error entry's path: the outer path, then each member, joined by `!` (names as
    /// text; printers escape them).
    static func path(_ outer: String, _ members: [[UInt8]]) -> String {
        ([outer] + members.map(Location.display)).joined(separator: "!")
    }
}
