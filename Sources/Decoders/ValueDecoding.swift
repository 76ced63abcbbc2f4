/// `bytes` with their `%XX` escapes decoded as the percent decoder decodes them
/// (`ValueDecoding.percent`): for the pipeline, which tells a value found raw from the same
/// value found again in a span's decoded text.
public func percentDecoded(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var out: [UInt8] = []
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return out }
    _ = ValueDecoding.percent(base.assumingMemoryBound(to: UInt8.self), 0..<bytes.count, into: &out)
    return out
}

/// The decoders proper: each reads one span the finder chose and appends what it decodes to
/// `out` (cleared first). They never read outside the span and never fail on bad input: an
/// invalid span returns false.
enum ValueDecoding {
    /// Base64 of either alphabet (the finder has made sure a span uses one), with or without
    /// `=` padding, written to `out`, which has room for `range.count / 4 * 3 + 2` bytes.
    /// A length that no base64 can have (4k+1 characters) is invalid.
    /// - Returns: the number of bytes decoded, nil for an invalid span.
    static func base64(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, into o: UnsafeMutablePointer<UInt8>) -> Int? {
        var end = range.upperBound
        while end > range.lowerBound && p[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = range.upperBound - end
        let count = end - range.lowerBound
        if count % 4 == 1 || padding > 2 || (padding > 0 && (count + padding) % 4 != 0) { return nil }
        // Written through a pointer into storage the finder sizes once per buffer, not
        // appended to an array: the appends' uniqueness and capacity checks, then resizing an
        // array per candidate (`append(contentsOf:)`, `replaceSubrange`), were more than
        // this function's own work, when it ran on every candidate run (since the finder
        // drops most identifiers from their first characters, it runs on few).
        let left = count % 4
        return ByteClass.base64Value.withUnsafeBufferPointer { v -> Int in
            var i = range.lowerBound, j = 0
            while i + 4 <= end {
                let a = UInt32(v[Int(p[i])]), b = UInt32(v[Int(p[i + 1])]), c = UInt32(v[Int(p[i + 2])]), d = UInt32(v[Int(p[i + 3])])
                let w = a << 18 | b << 12 | c << 6 | d
                o[j] = UInt8(truncatingIfNeeded: w >> 16)
                o[j + 1] = UInt8(truncatingIfNeeded: w >> 8)
                o[j + 2] = UInt8(truncatingIfNeeded: w)
                i += 4; j += 3
            }
            if left >= 2 {
                let a = UInt32(v[Int(p[i])]), b = UInt32(v[Int(p[i + 1])])
                let c = left == 3 ? UInt32(v[Int(p[i + 2])]) : 0
                let w = a << 18 | b << 12 | c << 6
                o[j] = UInt8(truncatingIfNeeded: w >> 16)
                j += 1
                if left == 3 { o[j] = UInt8(truncatingIfNeeded: w >> 8); j += 1 }
            }
            return j
        }
    }

    static func hex(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        if range.count % 2 != 0 { return false }
        out.reserveCapacity(range.count / 2)
        return ByteClass.hexValue.withUnsafeBufferPointer { v in
            var i = range.lowerBound
            while i < range.upperBound {
                let hi = v[Int(p[i])], lo = v[Int(p[i + 1])]
                if hi > 15 || lo > 15 { return false }
                out.append(hi << 4 | lo)
                i += 2
            }
            return true
        }
    }

    /// `%XX` becomes its byte; everything else, a `%` without two hex digits included, stays.
    /// `+` stays `+`: it is a space only in form bodies, and base64 inside URLs holds `+`.
    static func percent(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(range.count)
        var escapes = 0
        ByteClass.hexValue.withUnsafeBufferPointer { v in
            var i = range.lowerBound
            while i < range.upperBound {
                let b = p[i]
                if b == UInt8(ascii: "%") && i + 2 < range.upperBound,
                   v[Int(p[i + 1])] < 16, v[Int(p[i + 2])] < 16 {
                    out.append(v[Int(p[i + 1])] << 4 | v[Int(p[i + 2])])
                    escapes += 1
                    i += 3
                } else {
                    out.append(b)
                    i += 1
                }
            }
        }
        return escapes > 0
    }

    /// JSON, JavaScript and C string escapes: `\uXXXX` (a surrogate pair becomes one scalar; a
    /// lone surrogate U+FFFD), `\xXX`, octal `\N`, `\NN`, `\NNN` (up to 0o377), `\/`, `\"`,
    /// `\'`, `\\`, `\b \f \n \r \t \v \0 \a \e`. An unknown escape keeps its backslash.
    /// - Returns: false when nothing was unescaped; `sawOctal` tells a C literal from a JSON one.
    static func escapes(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8], sawOctal: inout Bool) -> Bool {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(range.count)
        sawOctal = false
        var escapes = 0
        let end = range.upperBound
        return ByteClass.hexValue.withUnsafeBufferPointer { v -> Bool in
            func hexValue(_ at: Int, _ digits: Int) -> UInt32? {
                if at + digits > end { return nil }
                var value: UInt32 = 0
                for k in 0..<digits {
                    let d = v[Int(p[at + k])]
                    if d > 15 { return nil }
                    value = value << 4 | UInt32(d)
                }
                return value
            }
            var i = range.lowerBound
            while i < end {
                let b = p[i]
                if b != UInt8(ascii: "\\") || i + 1 >= end {
                    out.append(b)
                    i += 1
                    continue
                }
                let e = p[i + 1]
                switch e {
                case UInt8(ascii: "u"):
                    guard var scalar = hexValue(i + 2, 4) else { out.append(b); i += 1; continue }
                    i += 6
                    if scalar >= 0xD800 && scalar < 0xDC00, i + 6 <= end, p[i] == UInt8(ascii: "\\"), p[i + 1] == UInt8(ascii: "u"),
                       let low = hexValue(i + 2, 4), low >= 0xDC00 && low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    appendUTF8(scalar, to: &out)
                case UInt8(ascii: "x"):
                    guard let byte = hexValue(i + 2, 2) else { out.append(b); i += 1; continue }
                    out.append(UInt8(byte))
                    i += 4
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value: UInt32 = 0
                    var k = i + 1
                    while k < end && k < i + 4 && p[k] >= UInt8(ascii: "0") && p[k] <= UInt8(ascii: "7") && value * 8 + UInt32(p[k] - 48) <= 0xFF {
                        value = value * 8 + UInt32(p[k] - 48)
                        k += 1
                    }
                    out.append(UInt8(value))
                    sawOctal = true
                    i = k
                default:
                    let simple: UInt8?
                    switch e {
                    case UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "`"): simple = e
                    case UInt8(ascii: "n"): simple = 0x0A
                    case UInt8(ascii: "t"): simple = 0x09
                    case UInt8(ascii: "r"): simple = 0x0D
                    case UInt8(ascii: "b"): simple = 0x08
                    case UInt8(ascii: "f"): simple = 0x0C
                    case UInt8(ascii: "v"): simple = 0x0B
                    case UInt8(ascii: "a"): simple = 0x07
                    case UInt8(ascii: "e"): simple = 0x1B
                    default: simple = nil
                    }
                    guard let s = simple else { out.append(b); i += 1; continue }
                    out.append(s)
                    i += 2
                }
                escapes += 1
            }
            return escapes > 0
        }
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        // A lone surrogate has no UTF-8 form.
        let s = (scalar >= 0xD800 && scalar < 0xE000) || scalar > 0x10FFFF ? 0xFFFD : scalar
        if s < 0x80 {
            out.append(UInt8(s))
        } else if s < 0x800 {
            out.append(UInt8(0xC0 | s >> 6)); out.append(UInt8(0x80 | s & 0x3F))
        } else if s < 0x10000 {
            out.append(UInt8(0xE0 | s >> 12)); out.append(UInt8(0x80 | s >> 6 & 0x3F)); out.append(UInt8(0x80 | s & 0x3F))
        } else {
            out.append(UInt8(0xF0 | s >> 18)); out.append(UInt8(0x80 | s >> 12 & 0x3F))
            out.append(UInt8(0x80 | s >> 6 & 0x3F)); out.append(UInt8(0x80 | s & 0x3F))
        }
    }
}
