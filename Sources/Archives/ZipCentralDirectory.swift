/// A zip's central directory read only far enough to find entries that share bytes: two
/// directory entries pointing at the same local header, or an entry whose header starts
/// inside another entry's data. libarchive's seekable reader keys entries by offset, so the
/// second of two entries at one offset is never handed out at all (a silent skip), and
/// entries nested in each other's data are the construction of the non-recursive zip bomb
/// (every entry expands over all the ones after it). Each such entry is a problem for the
/// caller instead, and is not read.
///
/// Every offset and length comes from the file and is bounds-checked; a directory that
/// cannot be parsed yields no claims (libarchive reports it when it reads it).
enum ZipCentralDirectory {
    struct Entry {
        var name: [UInt8]
        var localOffset: Int64
        var compressedSize: Int64
        var index: Int
    }

    /// The names of the entries that overlap an earlier one (by local header offset), in
    /// directory order.
    /// - Parameters:
    ///   - size: the whole input's size.
    ///   - read: `count` bytes at `offset` of the input, nil when they cannot be read.
    static func overlapping(size: Int64, maxEntries: Int, read: (Int64, Int) -> [UInt8]?) -> [[UInt8]] {
        guard let entries = entries(size: size, maxEntries: maxEntries, read: read), entries.count > 1 else { return [] }
        let sorted = entries.sorted { ($0.localOffset, $0.index) < ($1.localOffset, $1.index) }
        var overlapping: [Entry] = []
        // The end of the furthest extent so far: a local header (30 bytes and the name) and
        // the compressed data. The local extra field is left out, so a real zip's next
        // header is never inside this extent; an overlap is certain, never a guess.
        var reach: Int64 = -1
        var reachStart: Int64 = -1
        for entry in sorted {
            if entry.localOffset < reach || entry.localOffset == reachStart {
                overlapping.append(entry)
            }
            // Sizes come from the file (a zip64 size may be near Int64.max): no sum may trap.
            let (headerEnd, overflowA) = entry.localOffset.addingReportingOverflow(30 + Int64(entry.name.count))
            let (dataEnd, overflowB) = headerEnd.addingReportingOverflow(entry.compressedSize)
            if overflowA || overflowB {
                reach = .max
                reachStart = entry.localOffset
            } else if dataEnd > reach {
                reach = dataEnd
                reachStart = entry.localOffset
            }
        }
        return overlapping.sorted { $0.index < $1.index }.map(\.name)
    }

    private static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ at: Int) -> Int64 { Int64(u16(b, at)) | Int64(u16(b, at + 2)) << 16 }
    private static func u64(_ b: [UInt8], _ at: Int) -> Int64 {
        let value = UInt64(UInt32(truncatingIfNeeded: u32(b, at))) | UInt64(UInt32(truncatingIfNeeded: u32(b, at + 4))) << 32
        return value > UInt64(Int64.max) ? -1 : Int64(value)
    }

    /// The directory's entries, or nil when it is not where the end record says or is damaged.
    static func entries(size: Int64, maxEntries: Int, read: (Int64, Int) -> [UInt8]?) -> [Entry]? {
        let tailCount = Int(min(Int64(ArchiveKind.tailLength), size))
        guard tailCount >= 22, let tail = read(size - Int64(tailCount), tailCount) else { return nil }
        var at = tail.count - 22
        var eocd = -1
        while at >= 0 {
            if tail[at] == 0x50, tail[at + 1] == 0x4b, tail[at + 2] == 0x05, tail[at + 3] == 0x06,
               at + 22 + u16(tail, at + 20) == tail.count {
                eocd = at
                break
            }
            at -= 1
        }
        guard eocd >= 0 else { return nil }
        let eocdOffset = size - Int64(tailCount) + Int64(eocd)
        var count = Int64(u16(tail, eocd + 10))
        var directorySize = u32(tail, eocd + 12)
        // The directory ends where the record (or the zip64 record) starts: this holds for a
        // self-extractor's zip too, whose stored offsets leave out the stub in front.
        var directoryEnd = eocdOffset
        if count == 0xffff || directorySize == 0xffff_ffff || u32(tail, eocd + 16) == 0xffff_ffff {
            guard eocdOffset >= 20, let locator = read(eocdOffset - 20, 20), u32(locator, 0) == 0x0706_4b50 else { return nil }
            let zip64Offset = u64(locator, 8)
            guard zip64Offset >= 0, zip64Offset + 56 <= eocdOffset, let record = read(zip64Offset, 56), u32(record, 0) == 0x0606_4b50 else {
                return nil
            }
            count = u64(record, 32)
            directorySize = u64(record, 40)
            directoryEnd = zip64Offset
        }
        // 64 MiB of directory is about 800,000 entries, far past the member limit.
        guard count >= 0, directorySize >= 0, directorySize <= 64 << 20, directorySize <= directoryEnd,
              let directory = read(directoryEnd - directorySize, Int(directorySize)) else { return nil }
        var entries: [Entry] = []
        var offset = 0
        while entries.count < min(Int(min(count, Int64(Int.max))), maxEntries) {
            guard offset + 46 <= directory.count, u32(directory, offset) == 0x0201_4b50 else { return nil }
            let nameLength = u16(directory, offset + 28), extraLength = u16(directory, offset + 30)
            let commentLength = u16(directory, offset + 32)
            let next = offset + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { return nil }
            var compressed = u32(directory, offset + 20)
            let uncompressed = u32(directory, offset + 24)
            var local = u32(directory, offset + 42)
            // zip64: the sizes and offset saturated here are in the extra field, in this order.
            var extra = offset + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(directory, extra), length = u16(directory, extra + 2)
                guard extra + 4 + length <= extraEnd else { break }
                if id == 1 {
                    var field = extra + 4
                    if uncompressed == 0xffff_ffff, field + 8 <= extra + 4 + length { field += 8 }
                    if compressed == 0xffff_ffff, field + 8 <= extra + 4 + length { compressed = u64(directory, field); field += 8 }
                    if local == 0xffff_ffff, field + 8 <= extra + 4 + length { local = u64(directory, field) }
                }
                extra += 4 + length
            }
            guard compressed >= 0, local >= 0 else { return nil }
            entries.append(Entry(name: Array(directory[(offset + 46)..<(offset + 46 + nameLength)]), localOffset: local,
                                 compressedSize: compressed, index: entries.count))
            offset = next
        }
        return entries
    }
}
