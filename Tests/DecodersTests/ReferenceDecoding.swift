@testable import Decoders

/// `ValueDecoding.base64` and `TextCheck.mayHoldEncoding` as they were, and the finder's look
/// at a base64 candidate's first characters written from its definition, for `ReferenceSpanFinder`.
enum ReferenceDecoding {
    /// Whether the base64 span `from..<end` (padding included) is dropped without being
    /// decoded (`keyshape_base64_drops`), decided here on the whole decode:
    /// - a length no base64 has (4k + 1 characters) is dropped;
    /// - of 16 characters or more, the first 12 decoded bytes are read as `TextCheck.isText`
    ///   reads them, a UTF-8 sequence that runs past the 12 taken as good: when they hold more
    ///   bad bytes than `decoded / 16`, the decode is no text;
    /// - no text, and binary spans not kept: dropped; kept: dropped unless two whole quanta in a
    ///   row decode to printable bytes and the quantum after them starts with one (what any ten
    ///   printable bytes in a row hold), or, past 62 whole quanta, unless three quanta in a row
    ///   start with `I` to `Z` or `a` to `f`.
    static func dropsUnread(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, keepBinary: Bool) -> Bool {
        var stop = end
        while stop > from && p[stop - 1] == UInt8(ascii: "=") { stop -= 1 }
        let count = stop - from
        if count % 4 == 1 { return true }
        if count < 16 { return false }
        var bytes: [UInt8] = []
        _ = base64(p, from..<stop, into: &bytes)
        func need(_ x: UInt8) -> Int { x >= 0xC2 && x <= 0xDF ? 1 : x >= 0xE0 && x <= 0xEF ? 2 : x >= 0xF0 && x <= 0xF4 ? 3 : 0 }
        var taken = [Bool](repeating: false, count: 12)
        var bad = 0
        for i in 0..<12 where need(bytes[i]) > 0 {
            let k = need(bytes[i])
            if i + k >= 12 {
                for j in i + 1 ..< 12 { taken[j] = true }
            } else if (1...k).allSatisfy({ bytes[i + $0] & 0xC0 == 0x80 }) {
                for j in 1...k { taken[i + j] = true }
            } else {
                bad += 1
            }
        }
        for i in 0..<12 {
            let x = bytes[i]
            let alwaysBad = (x < 0x20 && x != 9 && x != 10 && x != 13) || x == 0x7F || x == 0xC0 || x == 0xC1 || x >= 0xF5
            if alwaysBad || (x & 0xC0 == 0x80 && !taken[i]) { bad += 1 }
        }
        if bad <= bytes.count / 16 { return false }
        if !keepBinary { return true }
        let whole = count / 4, quanta = whole + (count % 4 >= 2 ? 1 : 0)
        if whole > 62 {
            func lead(_ c: UInt8) -> Bool { (c >= UInt8(ascii: "I") && c <= UInt8(ascii: "Z")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f")) }
            for j in 0...(min(whole - 2, quanta - 3)) where lead(p[from + 4 * j]) && lead(p[from + 4 * j + 4]) && lead(p[from + 4 * j + 8]) {
                return false
            }
            return true
        }
        func printable(_ x: UInt8) -> Bool { x >= 0x20 && x <= 0x7E }
        for j in 0..<whole - 1 where j + 2 < quanta {
            if (3 * j..<3 * j + 6).allSatisfy({ printable(bytes[$0]) }) && printable(bytes[3 * j + 6]) { return false }
        }
        return true
    }

    static func base64(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        var end = range.upperBound
        while end > range.lowerBound && p[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = range.upperBound - end
        let count = end - range.lowerBound
        if count % 4 == 1 || padding > 2 || (padding > 0 && (count + padding) % 4 != 0) { return false }
        out.reserveCapacity(count / 4 * 3 + 2)
        ByteClass.base64Value.withUnsafeBufferPointer { v in
            var i = range.lowerBound
            while i + 4 <= end {
                let a = UInt32(v[Int(p[i])]), b = UInt32(v[Int(p[i + 1])]), c = UInt32(v[Int(p[i + 2])]), d = UInt32(v[Int(p[i + 3])])
                let w = a << 18 | b << 12 | c << 6 | d
                out.append(UInt8(truncatingIfNeeded: w >> 16))
                out.append(UInt8(truncatingIfNeeded: w >> 8))
                out.append(UInt8(truncatingIfNeeded: w))
                i += 4
            }
            let left = end - i
            if left >= 2 {
                let a = UInt32(v[Int(p[i])]), b = UInt32(v[Int(p[i + 1])])
                let c = left == 3 ? UInt32(v[Int(p[i + 2])]) : 0
                let w = a << 18 | b << 12 | c << 6
                out.append(UInt8(truncatingIfNeeded: w >> 16))
                if left == 3 { out.append(UInt8(truncatingIfNeeded: w >> 8)) }
            }
        }
        return true
    }

    static func mayHoldEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var run = 0
        for b in bytes {
            if b >= 0x20 && b < 0x7F {
                run += 1
                if run >= TextCheck.minimumEncodedLength { return true }
            } else {
                run = 0
            }
        }
        return false
    }
}
