#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds-checked reads of integers from untrusted bytes: every offset is checked before it
/// is read, so a crafted offset is an error, never a trap.
struct ByteView {
    let bytes: UnsafeRawBufferPointer

    var count: Int { bytes.count }

    /// Whether `count` bytes at `offset` lie inside the buffer (no overflow for any input).
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard contains(offset, length) else {
            throw AppFormatError("\(what()) at offset \(offset) (\(length) bytes) lies outside the file (\(bytes.count) bytes)")
        }
    }

    func u8(_ offset: Int) throws -> Int {
        try check(offset, 1, "a byte")
        return Int(bytes[offset])
    }

    func u16le(_ offset: Int) throws -> Int {
        try check(offset, 2, "a 16-bit value")
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func u32le(_ offset: Int) throws -> Int {
        try check(offset, 4, "a 32-bit value")
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    func u16be(_ offset: Int) throws -> Int {
        try check(offset, 2, "a 16-bit value")
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// A big-endian unsigned integer of `size` bytes (1 to 8); values that do not fit an
    /// `Int` are returned as `Int.max`, which every bounds check then refuses.
    func uintBE(_ offset: Int, size: Int) throws -> Int {
        try check(offset, size, "a \(size)-byte value")
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    /// An unsigned LEB128 of at most 5 bytes (DEX's 32-bit values): the value and its length.
    func uleb128(_ offset: Int) throws -> (value: Int, length: Int) {
        var value = 0
        for i in 0..<5 {
            let b = try u8(offset + i)
            value |= (b & 0x7f) << (7 * i)
            if b & 0x80 == 0 { return (value, i + 1) }
        }
        throw AppFormatError("a ULEB128 value at offset \(offset) runs over 5 bytes")
    }

    /// The offset of the first NUL at or after `offset` and before `limit`, nil if none.
    func nul(from offset: Int, before limit: Int) -> Int? {
        let end = min(limit, bytes.count)
        guard offset >= 0, offset < end, let base = bytes.baseAddress else { return nil }
        guard let hit = memchr(base + offset, 0, end - offset) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }
}
