/// A git object name (SHA-1, 20 bytes, or SHA-256, 32 bytes), stored inline so millions of
/// them fit in a set without an allocation each.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
    /// Bytes in the name: 20 or 32.
    public let byteCount: UInt8

    /// From ASCII hex (40 or 64 digits, either case); nil for anything else.
    public init?<C: Collection>(hexBytes hex: C) where C.Element == UInt8 {
        guard hex.count == 40 || hex.count == 64 else { return nil }
        byteCount = UInt8(hex.count / 2)
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var i = 0
        for c in hex {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            default: return nil
            }
            let bits = UInt64(v) << UInt64(60 - 4 * (i % 16))
            switch i / 16 { case 0: words.0 |= bits; case 1: words.1 |= bits; case 2: words.2 |= bits; default: words.3 |= bits }
            i += 1
        }
        w0 = words.0; w1 = words.1; w2 = words.2; w3 = words.3
    }

    public init?(_ hex: String) { self.init(hexBytes: Array(hex.utf8)) }

    /// The all-zero name of a given length (git's "no object").
    public static func zero(byteCount: Int) -> ObjectID {
        ObjectID(hexBytes: [UInt8](repeating: 0x30, count: byteCount * 2))!
    }

    public var isZero: Bool { w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 }

    /// Lowercase hex, 40 or 64 digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        let words = [w0, w1, w2, w3]
        var out = [UInt8]()
        out.reserveCapacity(Int(byteCount) * 2)
        for i in 0..<(Int(byteCount) * 2) {
            out.append(digits[Int((words[i / 16] >> UInt64(60 - 4 * (i % 16))) & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    /// Appends the lowercase hex digits to `out` (no allocation per digit).
    public func appendHex(to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { d in
            for i in 0..<(Int(byteCount) * 2) {
                let word: UInt64
                switch i / 16 { case 0: word = w0; case 1: word = w1; case 2: word = w2; default: word = w3 }
                out.append(d[Int((word >> UInt64(60 - 4 * (i % 16))) & 15)])
            }
        }
    }

    public static func < (a: ObjectID, b: ObjectID) -> Bool {
        (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
    }
}
