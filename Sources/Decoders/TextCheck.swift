/// Whether decoded bytes look like text worth matching: a base64 image, a digest or the
/// misreading of an identifier as base64 does not.
enum TextCheck {
    /// At most one byte in 16 may be a control character, DEL or not part of valid UTF-8.
    /// Random bytes are about 37% printable ASCII (and rarely valid multi-byte UTF-8), so a
    /// binary decode of 12 bytes or more fails this by a wide margin, while text with a stray
    /// byte (a NUL terminator, a form feed) still passes.
    static let badBytesPerGood = 16
    /// Decoded text shorter than this is not worth matching: no rule's secret is shorter.
    static let minimumLength = 8
    /// Fewer distinct bytes than this is a placeholder (`xxxxxxxx`, `AAAA...`, `********`).
    static let minimumDistinctBytes = 4

    static func isText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        if n == 0 { return false }
        let allowed = n / badBytesPerGood
        var bad = 0
        var i = 0
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F {
                    bad += 1
                    if bad > allowed { return false }
                }
                i += 1
                continue
            }
            // A multi-byte UTF-8 sequence: lead byte, then its continuation bytes.
            let need: Int
            if b >= 0xC2 && b <= 0xDF { need = 1 } else if b >= 0xE0 && b <= 0xEF { need = 2 } else if b >= 0xF0 && b <= 0xF4 { need = 3 } else { need = -1 }
            var ok = need > 0 && i + need < n
            if ok {
                for k in 1...need where bytes[i + k] & 0xC0 != 0x80 { ok = false; break }
            }
            if ok {
                i += need + 1
            } else {
                bad += 1
                if bad > allowed { return false }
                i += 1
            }
        }
        return true
    }

    /// Text worth handing to the matcher: long enough, not a placeholder. A placeholder is a
    /// run of few distinct bytes or a template slot (`<...>`, `{{...}}`, `${...}`) and nothing else.
    static func isWorthMatching(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        if n < minimumLength { return false }
        var seen = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var distinct = 0
        for b in bytes {
            let bit = UInt64(1) << UInt64(b & 63)
            switch b >> 6 {
            case 0: if seen.0 & bit == 0 { seen.0 |= bit; distinct += 1 }
            case 1: if seen.1 & bit == 0 { seen.1 |= bit; distinct += 1 }
            case 2: if seen.2 & bit == 0 { seen.2 |= bit; distinct += 1 }
            default: if seen.3 & bit == 0 { seen.3 |= bit; distinct += 1 }
            }
            if distinct >= minimumDistinctBytes { break }
        }
        if distinct < minimumDistinctBytes { return false }
        let first = bytes[0], last = bytes[n - 1]
        // `<your-api-key>`, not `<password>…</password>`: one pair of angle brackets only.
        if first == UInt8(ascii: "<") && last == UInt8(ascii: ">")
            && !bytes[1..<(n - 1)].contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\n") }) {
            return false
        }
        if first == UInt8(ascii: "{") && bytes[1] == UInt8(ascii: "{") && last == UInt8(ascii: "}") && bytes[n - 2] == UInt8(ascii: "}") { return false }
        if first == UInt8(ascii: "$") && bytes[1] == UInt8(ascii: "{") && last == UInt8(ascii: "}") { return false }
        return true
    }

    /// The shortest encoded text that can decode to `minimumLength` bytes: `%XX` for two of
    /// eight characters, or an escape in a short literal.
    static let minimumEncodedLength = 10

    /// Whether bytes that are not text may still hold an encoded value (a base64 string
    /// inside a binary record): a printable ASCII run of `minimumEncodedLength`. A misread
    /// identifier (12 to 20 random bytes) almost never has one (about 5 in 100,000 per byte
    /// of random input), so its decode is dropped without a second search.
    static func mayHoldEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Looks at the last byte of each window of `minimumEncodedLength` first: when it is
        // not printable no run of that length starts in the window, and the next window
        // starts after it (random bytes are 37% printable, so most windows cost one byte, not
        // ten). Otherwise the window is read backwards to its last byte that is not printable,
        // and the next window starts after that one. It was 2.7% of a source scan's CPU
        // byte by byte.
        let n = bytes.count, w = minimumEncodedLength
        @inline(__always) func printable(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }
        // No run of `w` printable bytes starts before `i`.
        var i = 0
        while i + w <= n {
            if !printable(bytes[i + w - 1]) { i += w; continue }
            var k = i + w - 2
            while k >= i && printable(bytes[k]) { k -= 1 }
            if k < i { return true }
            i = k + 1
        }
        return false
    }
}
