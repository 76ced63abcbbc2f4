/// A git object name (SHA-1, 20 bytes, or SHA-256, 32 bytes), stored inline so millions of
/// them fit in a set without an allocation each.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
    /// Bytes in the name: 20 or 32.
    public let byteCount: UInt8

    /// From ASCII hex (40 or 64 digits, either case); nil for anything else.
    public init?<C: Collection>(hexBytes hex: C) where C.Element == UInt8 {
        let parsed = hex.withContiguousStorageIfAvailable { ObjectID.parse(UnsafeRawBufferPointer($0)) }
            ?? Array(hex).withUnsafeBytes { ObjectID.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    private init(words: (UInt64, UInt64, UInt64, UInt64), byteCount: UInt8) {
        (w0, w1, w2, w3) = words
        self.byteCount = byteCount
    }

    /// Hex digit values, 0xFF for anything else.
    private static let digitValue: [UInt8] = (0..<256).map { c -> UInt8 in
        switch UInt8(c) {
        case 0x30...0x39: return UInt8(c) - 0x30
        case 0x61...0x66: return UInt8(c) - 0x61 + 10
        case 0x41...0x46: return UInt8(c) - 0x41 + 10
        default: return 0xFF
        }
    }

    static func parse(_ hex: UnsafeRawBufferPointer) -> ObjectID? {
        guard hex.count == 40 || hex.count == 64 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var bad: UInt8 = 0
        digitValue.withUnsafeBufferPointer { table in
            func word(_ from: Int, _ count: Int) -> UInt64 {
                var w: UInt64 = 0
                for k in 0..<count {
                    let v = table[Int(hex[from + k])]
                    bad |= v
                    w = w << 4 | UInt64(v & 15)
                }
                return w << UInt64(4 * (16 - count))
            }
            words.0 = word(0, 16)
            words.1 = word(16, 16)
            if hex.count == 40 {
                words.2 = word(32, 8)
            } else {
                words.2 = word(32, 16)
                words.3 = word(48, 16)
            }
        }
        if bad & 0xF0 != 0 { return nil }
        return ObjectID(words: words, byteCount: UInt8(hex.count / 2))
    }

    public init?(_ hex: String) { self.init(hexBytes: Array(hex.utf8)) }

    /// The all-zero name of a given length (git's "no object").
    public static func zero(byteCount: Int) -> ObjectID {
        ObjectID(hexBytes: [UInt8](repeating: 0x30, count: byteCount * 2))!
    }

    public var isZero: Bool { w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 }

    /// Lowercase hex, 40 or 64 digits, written straight into the string's storage: the
    /// commit-message pass builds one per message (its allowlist context), and the version
    /// that filled an array first (two arrays and a copy per call) was a sixth of that pass's
    /// own CPU (18 of 107 samples, psf/requests' 6,708 messages).
    public var hex: String {
        let count = Int(byteCount) * 2
        let (a, b, c, d) = (w0, w1, w2, w3)
        return String(unsafeUninitializedCapacity: count) { out in
            for i in 0..<count {
                let word: UInt64
                switch i >> 4 { case 0: word = a; case 1: word = b; case 2: word = c; default: word = d }
                let v = UInt8(truncatingIfNeeded: (word >> UInt64(60 - 4 * (i & 15))) & 15)
                out[i] = v < 10 ? 0x30 + v : 0x57 + v
            }
            return count
        }
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
