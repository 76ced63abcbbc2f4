import Archives
import MatchEngine
import ScanCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What lies in an archive's own bytes outside its members: a tar's headers and pax records,
/// the padding after each member, the blocks after its end (a second tar concatenated to it,
/// anything appended); a zip's local headers, directory, comments, and entries the directory
/// leaves out; an ar's headers. None of it is a member, so reading members alone left it
/// unread (a key in a zip comment, a pax record or behind a tar's end blocks was never
/// reported). It is scanned here as raw bytes, at the archive's own path with a `raw` place
/// and the offset in the archive (`App.zip:raw+0x1f20`), as any binary file's bytes are.
///
/// Member data (stored or compressed) is left out, so a stored member's text is found once,
/// as the member; compressed data, which holds no plain text, costs nothing. The reader knows
/// where each member's data lay (`ArchiveReader.memberData`), so this is no second parse of
/// the format: every byte libarchive did not hand out as a member's data is read here.
///
/// Damage: an archive that no tool reads past a point has had its readable members and all
/// its raw bytes read once this is done, so a corrupt or truncated archive, or the members
/// after a damaged header, are no error (`settledByRawScan`); only what a reader could still
/// recover and keyshape did not read stays one (an encrypted member, a limit reached). Zip
/// entries that a streaming reader would still extract from the bytes outside the directory's
/// entries are read as members (`readEntries`), which is how a damaged directory's zip is
/// recovered too.
extension ArchiveMemberScan {
    /// The problems a scan of the source's raw bytes settles: the source's own damage.
    static func settledByRawScan(_ kind: ArchiveProblem.Kind) -> Bool {
        switch kind {
        case .corrupt, .truncated, .remainderUnread, .unreadable: return true
        default: return false
        }
    }

    struct OutsideScan {
        /// Indices of the top-level problems the raw scan settled (not errors).
        var settled = Set<Int>()
        /// Raw bytes scanned.
        var bytes = 0
    }

    /// Scans the raw bytes of `top`'s source that are no member's data.
    /// - Parameters:
    ///   - problems: `top`'s own problems (member chains from it in).
    ///   - readEntries: reads the entries of a zip (from a local header) or a tar (from a
    ///     header) at `range`'s start, to its end at most, as members; returns the reader (its
    ///     `memberData` relative to the range).
    func scanOutside(_ top: ArchiveReader, opening: ContainerOpening, problems: [ArchiveProblem], raw: ArchiveRawBytes, context: InputPlace,
                     readEntries: (Range<Int64>, ArchiveKind) -> ArchiveReader,
                     onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) -> OutsideScan {
        var out = OutsideScan()
        guard let kind = top.kind, raw.size > 0 else { return out }
        let damaged = problems.indices.filter { ArchiveMemberScan.settledByRawScan(problems[$0].kind) }
        // A zip found only by its end record (a self-extractor, a piece of a split zip): the
        // front scans all of the input's bytes itself, with the stub's own layout; only the
        // entries its directory leaves out are left to read here.
        guard opening == .members else {
            if kind == .zip { _ = zipEntriesOutside(raw, covered: top.memberData, known: top.entryDataStarts, readEntries: readEntries) }
            out.settled = Set(damaged)
            return out
        }
        var covered: [Range<Int64>] = []
        if kind.isCompressedStream || top.readThroughFilter {
            // Compressed data throughout: nothing plain lies outside the stream's members
            // unless it is damaged; then all of its bytes are read, as any binary file's.
            guard !damaged.isEmpty else { return out }
        } else {
            covered = top.memberData
            if kind == .zip { covered += zipEntriesOutside(raw, covered: covered, known: top.entryDataStarts, readEntries: readEntries) }
            if kind == .tar { covered += tarsAfterTheEnd(raw, top: top, readEntries: readEntries) }
        }
        out.bytes = scanRaw(raw.outside(covered), of: raw, context: context, onFinding: onFinding, onFailure: onFailure)
        out.settled = Set(damaged)
        return out
    }

    /// Zip entries outside the members read so far: each local header ("PK\3\4") found there
    /// whose data start is no known entry's is read from there on, as a streaming reader would;
    /// returns the data those reads took, in source offsets.
    private func zipEntriesOutside(_ raw: ArchiveRawBytes, covered: [Range<Int64>], known: Set<Int64>,
                                   readEntries: (Range<Int64>, ArchiveKind) -> ArchiveReader) -> [Range<Int64>] {
        var known = known
        var taken: [Range<Int64>] = []
        let window = 1 << 20
        for gap in raw.outside(covered) {
            var at = gap.lowerBound
            while at + 30 <= gap.upperBound {
                let bytes = raw.bytes(at: at, count: Int(min(Int64(window), gap.upperBound - at)))
                guard bytes.count >= 30 else { break }
                // Where to go on from: past this window, or past what a read took.
                var next = at + Int64(bytes.count - 29)
                let found: Int64? = bytes.withUnsafeBytes { buffer in
                    var i = 0
                    while i + 30 <= buffer.count {
                        guard let hit = memchr(buffer.baseAddress! + i, 0x50, buffer.count - 29 - i) else { return nil }
                        i = UnsafeRawPointer(hit) - buffer.baseAddress!
                        if buffer[i + 1] == 0x4b, buffer[i + 2] == 0x03, buffer[i + 3] == 0x04 {
                            let nameLength = Int64(buffer[i + 26]) | Int64(buffer[i + 27]) << 8
                            let extraLength = Int64(buffer[i + 28]) | Int64(buffer[i + 29]) << 8
                            if !known.contains(at + Int64(i) + 30 + nameLength + extraLength) { return at + Int64(i) }
                        }
                        i += 1
                    }
                    return nil
                }
                if let header = found {
                    let reader = readEntries(header..<gap.upperBound, .zip)
                    // A limit reached while reading them (reported there) ends the search too.
                    if reader.budget.isExhausted { return taken }
                    for start in reader.entryDataStarts { known.insert(start + header) }
                    let read = reader.memberData.map { ($0.lowerBound + header)..<($0.upperBound + header) }
                    taken += read
                    next = max(header + 4, read.map(\.upperBound).max() ?? 0)
                } else if at + Int64(bytes.count) >= gap.upperBound {
                    break
                }
                at = next
            }
        }
        return taken
    }

    /// Tars after the point where the reader stopped (its end blocks, or a header it could
    /// not read): a second tar concatenated to the first (`cat a.tar b.tar`), or the rest of
    /// a damaged one, whose members GNU tar's `--ignore-zeros` and a resyncing reader still
    /// extract. Each 512-byte block after the last member's data that is a valid tar header
    /// (its checksum adds up) starts a read, as members, from there; the reads' data, in
    /// source offsets. What is not a header stays raw bytes.
    private func tarsAfterTheEnd(_ raw: ArchiveRawBytes, top: ArchiveReader,
                                 readEntries: (Range<Int64>, ArchiveKind) -> ArchiveReader) -> [Range<Int64>] {
        var taken: [Range<Int64>] = []
        let lastData = max(top.memberData.map(\.upperBound).max() ?? 0, top.entryDataStarts.max() ?? 0)
        var at = (lastData + 511) / 512 * 512
        // Read a window (2,048 blocks) at a time: a gigabyte appended is 2 million blocks.
        let window = 1 << 20
        while at + 512 <= raw.size {
            let bytes = raw.bytes(at: at, count: Int(min(Int64(window), raw.size - at)))
            guard bytes.count >= 512 else { break }
            let found: Int64? = bytes.withUnsafeBytes { buffer in
                var block = 0
                while block + 512 <= buffer.count {
                    if ArchiveKind.isTarHeader(UnsafeRawBufferPointer(rebasing: buffer[block..<(block + 512)])) { return at + Int64(block) }
                    block += 512
                }
                return nil
            }
            guard let header = found else {
                at += Int64(bytes.count / 512 * 512)
                continue
            }
            let reader = readEntries(header..<raw.size, .tar)
            if reader.budget.isExhausted { break }
            let read = reader.memberData.map { ($0.lowerBound + header)..<($0.upperBound + header) }
            taken += read
            let end = max(read.map(\.upperBound).max() ?? 0, (reader.entryDataStarts.max() ?? 0) + header)
            at = max(header + 512, (end + 511) / 512 * 512)
        }
        return taken
    }

    /// Scans `gaps` of `raw` as binary bytes, gathered into buffers of up to a chunk (a NUL
    /// between two gaps, so no match joins them); a gap longer than a chunk is read in chunks
    /// that overlap by 64 KiB (a match in the overlap is reported once). Returns the bytes read.
    private func scanRaw(_ gaps: [Range<Int64>], of raw: ArchiveRawBytes, context: InputPlace,
                         onFinding: (BufferFinding) -> Void, onFailure: (RuleFailure) -> Void) -> Int {
        guard !gaps.isEmpty else { return 0 }
        let capacity = max(1 << 16, min(options.chunkSize, 64 << 20))
        let overlap = Int64(min(64 << 10, capacity / 4))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        var total = 0
        // Where each gathered piece starts in the buffer and in the source.
        var pieces: [(bufferStart: Int, sourceStart: Int64)] = []
        var seen = Set<[Int]>()
        func flush() {
            guard filled > 0 else { return }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<filled])
            front.match(bytes, layout: BinaryLayout.raw, context: context, onFinding: { f in
                var low = 0, high = pieces.count - 1
                while low < high {
                    let mid = (low + high + 1) / 2
                    if pieces[mid].bufferStart <= f.range.lowerBound { low = mid } else { high = mid - 1 }
                }
                let start = Int(pieces[low].sourceStart) + f.range.lowerBound - pieces[low].bufferStart
                guard seen.insert([f.ruleIndex, start, f.range.count]).inserted else { return }
                var f = f
                f.range = start..<(start + f.range.count)
                f.binary = BinaryPlace(format: "raw", fileOffset: start)
                onFinding(f)
            }, onFailure: onFailure)
            filled = 0
            pieces.removeAll(keepingCapacity: true)
        }
        for gap in gaps {
            total += Int(gap.count)
            // A gap that does not fit beside what is gathered starts a buffer of its own.
            if filled > 0, gap.count + 1 > Int64(capacity - filled) { flush() }
            var at = gap.lowerBound
            while true {
                if filled > 0 {
                    buffer[filled] = 0
                    filled += 1
                }
                let take = min(gap.upperBound - at, Int64(capacity - filled))
                pieces.append((filled, at))
                let got = raw.copy(at..<(at + take), to: buffer.baseAddress! + filled)
                filled += got
                if Int64(got) < take { break }
                at += take
                if at >= gap.upperBound { break }
                // Only a gap longer than a buffer gets here, from the buffer's start: the next
                // buffer starts `overlap` before this one's end, at least 3/4 of it further on.
                flush()
                at -= overlap
            }
        }
        flush()
        return total
    }
}
