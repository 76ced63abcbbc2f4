/// Byte-wise tests on 8 bytes at once in a UInt64 ("SIMD within a register"). Each returns
/// the high bit of every byte that passes. Inputs are 7-bit bytes (the caller masks the
/// high bits off and excludes those bytes), so no per-byte sum carries into the next byte.
enum SWAR {
    static let high: UInt64 = 0x8080_8080_8080_8080
    static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let ones: UInt64 = 0x0101_0101_0101_0101

    @inline(__always) static func spread(_ b: UInt8) -> UInt64 { ones &* UInt64(b) }

    /// Bytes equal to `b` (exact per byte: no borrow from a neighbour).
    @inline(__always) static func equal(_ y: UInt64, _ b: UInt8) -> UInt64 {
        let t = (y ^ spread(b)) & low7
        return ~((t &+ low7) | t) & high
    }

    /// Bytes in `lo...hi` (both at most 0x7F).
    @inline(__always) static func inRange(_ y: UInt64, _ lo: UInt8, _ hi: UInt8) -> UInt64 {
        let t = y & low7
        return (t &+ spread(0x80 - lo)) & ~(t &+ spread(0x7F - hi)) & high
    }
}
