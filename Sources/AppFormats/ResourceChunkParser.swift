/// Android's chunk files: binary XML (`AndroidManifest.xml`, compiled layouts) and the
/// resource table (`resources.arsc`). Both are a tree of `ResChunk_header` chunks {u16
/// type, u16 header size, u32 size}, little-endian; every size is checked against its parent
/// before a child is read. The string pools (`StringPoolParser`) hold the text: attribute
/// values, names, resource values. Places: `string_pool` for a file's own pool; in a table's
/// package, `type_strings` and `key_strings` (the package header names their offsets).
enum ResourceChunkParser {
    static let stringPoolType = 0x0001
    static let tableType = 0x0002
    static let xmlType = 0x0003
    static let packageType = 0x0200

    static func parse(_ bytes: UnsafeRawBufferPointer, format: AppFormat) throws -> AppDocument {
        let v = ByteView(bytes: bytes)
        var doc = AppDocument(format: format)
        let headerSize = try v.u16le(2), size = try v.u32le(4)
        guard headerSize >= 8, headerSize <= size else {
            throw AppFormatError("top chunk has header size \(headerSize) and size \(size)")
        }
        var end = size
        if size > v.count {
            doc.warn("top chunk gives a size of \(size) bytes; the file holds \(v.count) (truncated)")
            end = v.count
        }
        walk(v, from: headerSize, to: end, package: nil, doc: &doc)
        doc.finish()
        return doc
    }

    /// The chunks in `[from, to)`: string pools read, packages opened (one level: a package
    /// holds no packages), everything else stepped over by its size.
    private static func walk(_ v: ByteView, from: Int, to: Int, package: (types: Int, keys: Int)?, doc: inout AppDocument) {
        var at = from
        while at < to {
            guard to - at >= 8, let type = try? v.u16le(at), let headerSize = try? v.u16le(at + 2), let size = try? v.u32le(at + 4) else {
                doc.warn("a chunk header at offset \(at) runs past its parent")
                return
            }
            guard headerSize >= 8, headerSize <= size, size <= to - at else {
                doc.warn("chunk of type 0x\(String(type, radix: 16)) at offset \(at) gives header size \(headerSize) and size \(size), past its parent")
                return
            }
            if type == stringPoolType {
                var place = "string_pool"
                if let package {
                    if at == package.types { place = "type_strings" } else if at == package.keys { place = "key_strings" }
                }
                StringPoolParser.read(v, at: at, headerSize: headerSize, size: size, place: place, doc: &doc)
            } else if type == packageType, package == nil, doc.format == .resourceTable {
                // ResTable_package: header(8) id(4) name(256) typeStrings(4) lastPublicType(4) keyStrings(4) ...
                let types = (try? v.u32le(at + 268)).map { at + $0 } ?? -1
                let keys = (try? v.u32le(at + 276)).map { at + $0 } ?? -1
                walk(v, from: at + headerSize, to: at + size, package: (types, keys), doc: &doc)
            }
            at += size
        }
    }
}
