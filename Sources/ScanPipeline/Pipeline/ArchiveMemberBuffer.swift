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

    init(byteCount: Int = ArchiveMemberScan.readBytes) {
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
}
