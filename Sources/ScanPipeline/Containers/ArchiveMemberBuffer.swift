import Archives

/// The buffer archive members are read into whole (`ArchiveMemberScan`): one per pipeline,
/// so one per worker, kept from one archive to the next at the size of the largest member
/// it held (at most `--max-file-size`).
///
/// Why it outlives the archive: a buffer allocated afresh for each archive is memory the
/// kernel hands out page by page on first touch, zeroed. Made per archive and grown twice
/// per larger member (once to the declared size, then doubled when the last read came
/// within a read's worth of its end), it cost 356,683 page faults over the archive
/// benchmark's 1,107 MB (`scan --jobs 1`; 69,122 for the bsdtar floor): kernel time about
/// 4.5% of keyshape's CPU, against 3% for the floor's. Kept per worker: 74,712, and kernel
/// time 1.7%.
final class ArchiveMemberBuffer {
    private(set) var bytes: UnsafeMutableRawBufferPointer
    /// Held by an `ArchiveMemberScan`: another one made meanwhile on the same pipeline
    /// takes a buffer of its own.
    var inUse = false

    init(byteCount: Int = ArchiveMemberBuffer.readBytes) {
        bytes = .allocate(byteCount: byteCount, alignment: 64)
    }

    deinit { bytes.deallocate() }

    /// Grows to at least `byteCount` (and to half as much again as now, up to `limit`, so a
    /// run of ever larger members reallocates a few times, not once each; pages past the
    /// bytes written are address space only), keeping `bytes[0..<keeping]`.
    func reserve(_ byteCount: Int, keeping: Int, limit: Int) {
        guard byteCount > bytes.count else { return }
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(byteCount, min(bytes.count + bytes.count / 2, limit)), alignment: 64)
        if keeping > 0 { grown.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: keeping) }
        bytes.deallocate()
        bytes = grown
    }

    /// Reads `member` into `bytes[0..<count]`, at most `limit` bytes; `whole` false when more
    /// followed. Straight into the buffer, a read's worth (`readBytes`) at a time, so the
    /// limits are checked as often as before; the buffer is grown once to the size the archive
    /// declares (at most the cap; a lie costs address space, not memory, until bytes arrive)
    /// rather than doubled and copied as bytes come (the staging copy and the regrowth were
    /// about 1% of `scan --jobs 1`'s CPU over the archive benchmark, `perf record`). A member
    /// that fills the buffer exactly is probed for one more byte before the buffer grows: one
    /// of its declared size then takes no second, larger buffer.
    func read(_ member: ArchiveMember, limit cap: Int) -> (count: Int, whole: Bool) {
        var count = 0
        if let declared = member.declaredSize, declared > 0 {
            reserve(Int(min(declared, Int64(cap))), keeping: 0, limit: cap)
        }
        while count < cap {
            if count == bytes.count {
                var probe: UInt8 = 0
                guard withUnsafeMutableBytes(of: &probe, { member.read(into: $0, maxBytes: 1) }) == 1 else { return (count, true) }
                reserve(min(cap, count + ArchiveMemberBuffer.readBytes), keeping: count, limit: cap)
                bytes[count] = probe
                count += 1
                continue
            }
            let room = UnsafeMutableRawBufferPointer(rebasing: bytes[count..<bytes.count])
            let got = member.read(into: room, maxBytes: min(cap - count, ArchiveMemberBuffer.readBytes))
            if got == 0 { return (count, true) }
            count += got
        }
        var probe: UInt8 = 0
        return (count, withUnsafeMutableBytes(of: &probe) { member.read(into: $0, maxBytes: 1) } == 0)
    }

    /// One read's worth (256 KiB: libarchive hands out at most its own block per call).
    static let readBytes = 256 << 10
}
