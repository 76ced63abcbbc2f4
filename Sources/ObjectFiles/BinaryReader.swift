/// Integer fields out of a header or table that was read in one piece. Every accessor checks its
/// bounds and throws, so a field that a lying size pushes past the buffer is an error, not a trap.
struct BinaryReader {
    let bytes: [UInt8]
    let bigEndian: Bool
    /// Names the structure in errors ("Mach-O header", "ELF section header 3").
    let context: String

    init(_ bytes: [UInt8], bigEndian: Bool, context: String) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.context = context
    }

    var count: Int { bytes.count }

    private func check(_ offset: Int, _ width: Int) throws {
        guard offset >= 0, width >= 0, offset <= bytes.count, width <= bytes.count - offset else {
            throw ObjectFileError("\(context): field at byte \(offset) (\(width) bytes) is past its end (\(bytes.count) bytes)")
        }
    }

    func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
    }

    func u16(_ offset: Int) throws -> UInt16 { try unsigned(offset) }
    func u32(_ offset: Int) throws -> UInt32 { try unsigned(offset) }
    func u64(_ offset: Int) throws -> UInt64 { try unsigned(offset) }

    /// The `T`-wide field at `offset`, in the structure's byte order.
    private func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ offset: Int) throws -> T {
        let width = MemoryLayout<T>.size
        try check(offset, width)
        var value: T = 0
        for i in 0..<width {
            value = value << 8 | T(bytes[offset + (bigEndian ? i : width - 1 - i)])
        }
        return value
    }

    /// A fixed-width name field (Mach-O's char[16]): its bytes up to the first NUL. Whether
    /// they may be printed is SectionName's call.
    func fixedName(_ offset: Int, width: Int) throws -> ArraySlice<UInt8> {
        try check(offset, width)
        var end = offset
        while end < offset + width && bytes[end] != 0 { end += 1 }
        return bytes[offset..<end]
    }
}

/// Converts untrusted 64-bit (offset, size) pairs to a checked range inside `bounds`.
enum Checked {
    /// `base + offset ..< base + offset + size`, or nil when it overflows or leaves `bounds`.
    static func range(base: Int, offset: UInt64, size: UInt64, within bounds: Range<Int>) -> Range<Int>? {
        guard let off = Int(exactly: offset), let len = Int(exactly: size) else { return nil }
        let (start, o1) = base.addingReportingOverflow(off)
        guard !o1 else { return nil }
        let (end, o2) = start.addingReportingOverflow(len)
        guard !o2, start >= bounds.lowerBound, end <= bounds.upperBound else { return nil }
        return start..<end
    }

    /// `count * entrySize` as Int, or nil on overflow.
    static func product(_ count: Int, _ entrySize: Int) -> Int? {
        let (value, overflow) = count.multipliedReportingOverflow(by: entrySize)
        return overflow ? nil : value
    }
}
