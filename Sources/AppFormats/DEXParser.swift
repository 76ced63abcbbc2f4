/// Android DEX files (`classes.dex`): the `string_ids` table and the `string_data_item` each
/// entry points at (a ULEB128 count of UTF-16 code units, then modified UTF-8 ending in a
/// NUL), every offset and count checked against the file. Strings are placed in section
/// `string_data`: the table's name, not the string's index, so a finding keeps its
/// fingerprint when a rebuild adds strings before it.
enum DEXParser {
    static let headerSize = 0x70

    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> AppDocument {
        let v = ByteView(bytes: bytes)
        var doc = AppDocument(format: .dex)
        guard v.count >= headerSize else { throw AppFormatError("file of \(v.count) bytes is shorter than the 112-byte header") }
        let endian = try v.u32le(40)
        guard endian == 0x1234_5678 else {
            throw AppFormatError("endian tag is \(endian == 0x7856_3412 ? "byte-swapped (not supported)" : "not DEX's")")
        }
        let declaredSize = try v.u32le(32)
        if declaredSize > v.count { doc.warn("header gives a file size of \(declaredSize) bytes; the file holds \(v.count) (truncated)") }
        let count = try v.u32le(56), tableOffset = try v.u32le(60)
        guard count == 0 || (tableOffset >= headerSize && count <= (v.count - min(tableOffset, v.count)) / 4) else {
            throw AppFormatError("string_ids of \(count) entries at offset \(tableOffset) runs past the end of the file (\(v.count) bytes)")
        }
        var outside = 0, unterminated = 0
        for i in 0..<count {
            let dataOffset = try v.u32le(tableOffset + 4 * i)
            guard dataOffset >= headerSize, dataOffset < v.count, let (units, lengthBytes) = try? v.uleb128(dataOffset) else {
                outside += 1
                continue
            }
            let start = dataOffset + lengthBytes
            // Modified UTF-8 takes at most 3 bytes a UTF-16 code unit.
            let limit = units > (v.count - start) / 3 ? v.count : start + 3 * units + 1
            guard let end = v.nul(from: start, before: limit) else {
                unterminated += 1
                continue
            }
            doc.add(offset: start, length: end - start, encoding: .utf8, place: "string_data")
        }
        if outside > 0 { doc.warn("\(outside) of \(count) string_ids point outside the file") }
        if unterminated > 0 { doc.warn("\(unterminated) of \(count) strings have no terminating NUL within their length") }
        doc.finish()
        return doc
    }
}
