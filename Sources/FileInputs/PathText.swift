/// Turns a path's raw bytes into text for reports. Valid UTF-8 is kept as it is; every byte
/// that is not part of a valid UTF-8 sequence becomes `\xNN`, so two names that differ
/// only in such bytes print differently (decoding them to U+FFFD printed both alike).
/// Control characters are left to the printers, which escape all text they print.
public enum PathText {
    public static func display(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 12)
        var i = 0
        while i < bytes.count {
            if let n = sequenceLength(bytes, at: i) {
                out.append(contentsOf: bytes[i..<i + n])
                i += n
            } else {
                let digits = Array("0123456789abcdef".utf8)
                out += [0x5C, 0x78, digits[Int(bytes[i] >> 4)], digits[Int(bytes[i] & 15)]]   // \xNN
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (Unicode's table 3-7:
    /// no overlong forms, no surrogates, nothing past U+10FFFF), nil when there is none.
    static func sequenceLength(_ b: [UInt8], at i: Int) -> Int? {
        let lead = b[i]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard i + length <= b.count, second.contains(b[i + 1]) else { return nil }
        for k in 2..<max(2, length) where !(0x80...0xBF).contains(b[i + k]) { return nil }
        return length
    }
}
