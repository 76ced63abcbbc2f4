/// One `ResStringPool` chunk: {header(8), u32 stringCount, u32 styleCount, u32 flags,
/// u32 stringsStart, u32 stylesStart}, then `stringCount` u32 offsets from `stringsStart`.
/// UTF-16 pools (flag 0x100 clear) store a u16 length (two when the high bit is set), the
/// code units, a 0x0000; UTF-8 pools store the UTF-16 length and the byte length (one or two
/// bytes each), the bytes, a NUL. Every offset and length is checked against the chunk.
enum StringPoolParser {
    static let utf8Flag = 0x100

    static func read(_ v: ByteView, at chunk: Int, headerSize: Int, size: Int, place: String, doc: inout AppDocument) {
        guard headerSize >= 28, let count = try? v.u32le(chunk + 8), let flags = try? v.u32le(chunk + 16),
              let stringsStart = try? v.u32le(chunk + 20) else {
            doc.warn("string pool at offset \(chunk) has a header of \(headerSize) bytes")
            return
        }
        let end = chunk + size
        guard count <= (size - headerSize) / 4 else {
            doc.warn("string pool at offset \(chunk) gives \(count) strings, more than its \(size) bytes can index")
            return
        }
        guard count == 0 || (stringsStart >= headerSize && stringsStart <= size) else {
            doc.warn("string pool at offset \(chunk) puts its strings at \(stringsStart), outside its \(size) bytes")
            return
        }
        let utf8 = flags & utf8Flag != 0
        let base = chunk + stringsStart
        var bad = 0
        for i in 0..<count {
            guard let rel = try? v.u32le(chunk + headerSize + 4 * i), rel < end - base else { bad += 1; continue }
            let at = base + rel
            if utf8 {
                // Two lengths, each 1 byte, or 2 when the first has its high bit set.
                guard let (_, n1) = length8(v, at), let (bytes, n2) = length8(v, at + n1) else { bad += 1; continue }
                let start = at + n1 + n2
                guard start <= end, bytes <= end - start else { bad += 1; continue }
                doc.add(offset: start, length: bytes, encoding: .utf8, place: place)
            } else {
                guard let first = try? v.u16le(at) else { bad += 1; continue }
                var units = first, start = at + 2
                if first & 0x8000 != 0 {
                    guard let second = try? v.u16le(at + 2) else { bad += 1; continue }
                    units = (first & 0x7fff) << 16 | second
                    start = at + 4
                }
                guard start <= end, units <= (end - start) / 2 else { bad += 1; continue }
                doc.add(offset: start, length: 2 * units, encoding: .utf16LE, place: place)
            }
        }
        if bad > 0 { doc.warn("string pool at offset \(chunk): \(bad) of \(count) strings lie outside it") }
    }

    private static func length8(_ v: ByteView, _ at: Int) -> (Int, Int)? {
        guard let first = try? v.u8(at) else { return nil }
        if first & 0x80 == 0 { return (first, 1) }
        guard let second = try? v.u8(at + 1) else { return nil }
        return ((first & 0x7f) << 8 | second, 2)
    }
}
