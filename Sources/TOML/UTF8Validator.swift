/// Finds the first byte that breaks UTF-8, so a file in another encoding is
/// reported at the place it goes wrong instead of being silently repaired.
enum UTF8Validator {
    /// The offset of the first byte that does not belong to a well-formed
    /// sequence (overlong forms, surrogates and values above U+10FFFF included).
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // Allowed range of the second byte narrows for some lead bytes; this
            // is what rules out overlong forms, surrogates and > U+10FFFF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + 1 < count, bytes[i + 1] >= low, bytes[i + 1] <= high else { return i }
            for offset in 2..<max(2, length) {
                guard i + offset < count, bytes[i + offset] & 0xC0 == 0x80 else { return i }
            }
            i += length
        }
        return nil
    }
}
