/// Checksums that token formats document, checked on the secret's bytes. A token whose
/// checksum holds is almost surely real; one whose checksum fails is still reported (a gate
/// must not miss a real token over a decoding quirk), with low confidence.
public enum Checksum: String, Sendable, Hashable, CaseIterable {
    /// GitHub's token format (ghp_, gho_, ghu_, ghs_, ghr_; npm's npm_ uses the same): after
    /// the `prefix_`, 30 base62 characters of randomness and 6 base62 characters (0-9A-Za-z,
    /// left-padded with 0) of the CRC-32 (IEEE) of those 30, per GitHub's "Behind GitHub's new
    /// authentication token formats" (2021) and npm's access-token format note (2021).
    case githubCRC32 = "github-crc32"

    /// Whether the checksum holds; nil when the value does not have the shape the checksum
    /// is defined on (then no claim is made either way).
    public func holds(_ secret: UnsafeRawBufferPointer) -> Bool? {
        switch self {
        case .githubCRC32:
            guard let underscore = secret.lastIndex(of: 0x5F) else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: secret[(underscore + 1)...])
            guard body.count == 36 else { return nil }
            var value: UInt64 = 0
            for b in body[30...] {
                guard let digit = Checksum.base62Digit(b) else { return nil }
                value = value * 62 + UInt64(digit)
            }
            return value == UInt64(Checksum.crc32(UnsafeRawBufferPointer(rebasing: body[0..<30])))
        }
    }

    static let base62Alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    static func base62Digit(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x5A: return Int(b - 0x41) + 10
        case 0x61...0x7A: return Int(b - 0x61) + 36
        default: return nil
        }
    }

    /// `value` as `width` base62 digits, left-padded with `0` (the checksum's text form).
    public static func base62(_ value: UInt32, width: Int = 6) -> String {
        var digits: [UInt8] = []
        var v = UInt64(value)
        repeat { digits.append(base62Alphabet[Int(v % 62)]); v /= 62 } while v > 0
        while digits.count < width { digits.append(0x30) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// CRC-32 as zlib and PNG compute it (reflected polynomial 0xEDB88320).
    public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = crcTable[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
