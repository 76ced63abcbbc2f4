/// Java class files (`CAFEBABE`): the constant pool walked entry by entry (each tag's size is
/// fixed by the JVM specification, chapter 4.4), its `CONSTANT_Utf8` entries (a big-endian
/// u2 length, then modified UTF-8) listed in section `constant_pool`. An unknown tag ends
/// the walk (the sizes after it cannot be known): the entries before it are listed and the
/// file is an error entry.
enum JavaClassParser {
    /// Bytes after the tag, for the tags of fixed size; Long and Double take two slots.
    static func fixedSize(_ tag: Int) -> Int? {
        switch tag {
        case 7, 8, 16, 19, 20: return 2          // Class, String, MethodType, Module, Package
        case 15: return 3                         // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18: return 4 // Integer, Float, refs, NameAndType, (Invoke)Dynamic
        case 5, 6: return 8                       // Long, Double
        default: return nil
        }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> AppDocument {
        let v = ByteView(bytes: bytes)
        var doc = AppDocument(format: .javaClass)
        let poolCount = try v.u16be(8)
        var at = 10
        var index = 1
        while index < poolCount {
            let tag: Int
            do { tag = try v.u8(at) } catch {
                doc.warn("constant pool ends at entry \(index) of \(poolCount - 1): the file is truncated")
                break
            }
            if tag == 1 {
                guard let length = try? v.u16be(at + 1), v.contains(at + 3, length) else {
                    doc.warn("constant pool entry \(index) at offset \(at) runs past the end of the file")
                    break
                }
                doc.add(offset: at + 3, length: length, encoding: .utf8, place: "constant_pool")
                at += 3 + length
                index += 1
            } else if let size = fixedSize(tag) {
                at += 1 + size
                index += (tag == 5 || tag == 6) ? 2 : 1
                if at > v.count {
                    doc.warn("constant pool entry \(index) runs past the end of the file")
                    break
                }
            } else {
                doc.warn("constant pool entry \(index) at offset \(at) has unknown tag \(tag); the entries after it are not read")
                break
            }
        }
        doc.finish()
        return doc
    }
}
