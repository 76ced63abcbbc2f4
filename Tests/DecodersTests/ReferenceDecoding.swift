@testable import Decoders

/// `ValueDecoding.base64` and `TextCheck.mayHoldEncoding` as they were, for `ReferenceSpanFinder`.
enum ReferenceDecoding {
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
