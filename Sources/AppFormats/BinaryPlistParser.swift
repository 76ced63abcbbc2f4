/// Binary property lists (`bplist00`): the trailer, the offset table and every object read
/// with each offset, size, count and reference checked against the file; the strings
/// (ASCII, UTF-16BE, UTF-8) and `data` objects listed with their byte ranges and the key path
/// that reaches them from the top object (`CFBundleURLTypes/0/CFBundleURLSchemes/0`).
///
/// Objects are walked from the top object depth first in key order, each at most once (a
/// reference cycle or an object shared by many containers costs one visit; a shared string,
/// which plist writers unique, is placed at the first path that reaches it), at most
/// `maxDepth` containers deep; objects that no walk reached (unreferenced, or deeper than the
/// limit) are still listed, without a path, so nothing in the file goes unread.
///
/// Why the key path is the place name (the contract's `section`): it names the value as a
/// developer knows it (`API_KEY`, not an object number), and it stays the same when other
/// values are added or reordered, so a finding's fingerprint survives rebuilds of the plist.
enum BinaryPlistParser {
    static let maxDepth = 64
    /// Path names are data from the file: bounded, so a crafted plist cannot make every
    /// finding's location megabytes long.
    static let maxPathBytes = 256
    static let maxComponentBytes = 64

    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> AppDocument {
        let v = ByteView(bytes: bytes)
        var doc = AppDocument(format: .binaryPlist)
        guard v.count >= 8 + 32 else { throw AppFormatError("file of \(v.count) bytes is shorter than a header and a trailer") }
        let t = v.count - 32
        let offsetSize = try v.u8(t + 6), refSize = try v.u8(t + 7)
        let objectCount = try v.uintBE(t + 8, size: 8)
        let top = try v.uintBE(t + 16, size: 8)
        let tableOffset = try v.uintBE(t + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw AppFormatError("trailer gives offset size \(offsetSize) and reference size \(refSize) (1 to 8 allowed)")
        }
        // Every object takes at least one byte between the header and the table.
        guard objectCount >= 1, tableOffset >= 8, tableOffset <= t, objectCount <= tableOffset - 8 else {
            throw AppFormatError("trailer gives \(objectCount) objects and an offset table at \(tableOffset) in a file of \(v.count) bytes")
        }
        guard objectCount <= (t - tableOffset) / offsetSize else {
            throw AppFormatError("offset table of \(objectCount) entries at \(tableOffset) runs past the trailer")
        }
        guard top < objectCount else { throw AppFormatError("top object \(top) is not one of the \(objectCount) objects") }

        var walker = Walker(v: v, offsetSize: offsetSize, refSize: refSize, objectCount: objectCount,
                            tableOffset: tableOffset, visited: [Bool](repeating: false, count: objectCount))
        walker.walk(top, doc: &doc)
        // What no walk reached: listed without a path.
        for object in 0..<objectCount where !walker.visited[object] {
            walker.visited[object] = true
            walker.listContents(object, path: nil, doc: &doc)
        }
        doc.finish()
        return doc
    }

    private struct Object {
        var marker: Int
        /// Where the object's contents start, and its count (characters, bytes, references).
        var start: Int
        var count: Int
    }

    private struct Walker {
        let v: ByteView
        let offsetSize: Int
        let refSize: Int
        let objectCount: Int
        let tableOffset: Int
        var visited: [Bool]

        /// The marker and count of `object`, nil (with a warning) when it lies outside the file.
        func object(_ object: Int, doc: inout AppDocument) -> Object? {
            do {
                let at = try v.uintBE(tableOffset + object * offsetSize, size: offsetSize)
                guard at >= 8, at < tableOffset else { throw AppFormatError("object \(object) at offset \(at) lies outside the object area") }
                let marker = try v.u8(at)
                var count = marker & 0x0f
                var start = at + 1
                let kind = marker >> 4
                if count == 0x0f, [0x4, 0x5, 0x6, 0x7, 0xa, 0xb, 0xc, 0xd].contains(kind) {
                    let intMarker = try v.u8(at + 1)
                    guard intMarker >> 4 == 0x1, intMarker & 0x0f <= 3 else {
                        throw AppFormatError("object \(object) has a count that is not an integer")
                    }
                    let size = 1 << (intMarker & 0x0f)
                    count = try v.uintBE(at + 2, size: size)
                    start = at + 2 + size
                }
                return Object(marker: marker, start: start, count: count)
            } catch let error as AppFormatError {
                doc.warn(error.message)
                return nil
            } catch {
                return nil
            }
        }

        func reference(_ container: Object, _ i: Int) throws -> Int {
            let r = try v.uintBE(container.start + i * refSize, size: refSize)
            guard r < objectCount else { throw AppFormatError("reference to object \(r) of \(objectCount)") }
            return r
        }

        /// The text of a string object for a key path (bounded), nil for any other object.
        func keyName(_ object: Int, doc: inout AppDocument) -> String? {
            guard let o = self.object(object, doc: &doc) else { return nil }
            switch o.marker >> 4 {
            case 0x5, 0x7:
                guard v.contains(o.start, o.count) else { return nil }
                let n = min(o.count, BinaryPlistParser.maxComponentBytes)
                return String(decoding: UnsafeRawBufferPointer(rebasing: v.bytes[o.start..<(o.start + n)]), as: UTF8.self)
            case 0x6:
                guard o.count <= Int.max / 2, v.contains(o.start, 2 * o.count) else { return nil }
                let n = min(o.count, BinaryPlistParser.maxComponentBytes)
                var units: [UInt16] = []
                for i in 0..<n { units.append(UInt16(v.bytes[o.start + 2 * i]) << 8 | UInt16(v.bytes[o.start + 2 * i + 1])) }
                return String(decoding: units, as: UTF16.self)
            default:
                return nil
            }
        }

        static func join(_ path: String?, _ component: String) -> String {
            let joined = path.map { $0 + "/" + component } ?? component
            guard joined.utf8.count > BinaryPlistParser.maxPathBytes else { return joined }
            return String(decoding: joined.utf8.prefix(BinaryPlistParser.maxPathBytes), as: UTF8.self)
        }

        /// Depth-first from `root`, with an explicit stack (no recursion: depth is the file's).
        mutating func walk(_ root: Int, doc: inout AppDocument) {
            var stack: [(object: Int, path: String?, depth: Int, isValue: Bool)] = [(root, nil, 0, false)]
            while let (object, path, depth, isValue) = stack.popLast() {
                guard !visited[object] else { continue }
                visited[object] = true
                guard let o = self.object(object, doc: &doc) else { continue }
                let kind = o.marker >> 4
                guard [0xa, 0xb, 0xc, 0xd].contains(kind) else {
                    listContents(object, path: path, isDictValue: isValue, doc: &doc)
                    continue
                }
                // Deeper containers are left to the pass over unreached objects.
                guard depth < BinaryPlistParser.maxDepth else { visited[object] = false; continue }
                let refs = kind == 0xd ? 2 : 1
                guard o.count <= (tableOffset - o.start) / (refs * refSize), v.contains(o.start, refs * o.count * refSize) else {
                    doc.warn("object \(object) holds \(o.count) references that run past the object area")
                    continue
                }
                var children: [(Int, String?, Int, Bool)] = []
                do {
                    for i in 0..<o.count {
                        if kind == 0xd {
                            let key = try reference(o, i), value = try reference(o, o.count + i)
                            let name = keyName(key, doc: &doc) ?? "?"
                            let childPath = Walker.join(path, name)
                            children.append((key, childPath, depth + 1, false))
                            children.append((value, childPath, depth + 1, true))
                        } else {
                            children.append((try reference(o, i), Walker.join(path, String(i)), depth + 1, false))
                        }
                    }
                } catch let error as AppFormatError {
                    doc.warn("object \(object): \(error.message)")
                } catch {}
                // Popped in key order.
                stack.append(contentsOf: children.reversed())
            }
        }

        /// Lists a string or data object's bytes at `path` (`isDictValue`: a dict's value, whose
        /// key is the path's last component).
        func listContents(_ object: Int, path: String?, isDictValue: Bool = false, doc: inout AppDocument) {
            guard let o = self.object(object, doc: &doc) else { return }
            let encoding: AppString.Encoding
            var length = o.count
            switch o.marker >> 4 {
            case 0x4: encoding = .data
            case 0x5, 0x7: encoding = .utf8
            case 0x6:
                encoding = .utf16BE
                guard o.count <= Int.max / 2 else { length = Int.max; break }
                length = 2 * o.count
            default: return
            }
            guard length <= tableOffset, o.start <= tableOffset - length else {
                doc.warn("object \(object) of \(o.count) units at offset \(o.start) runs past the object area")
                return
            }
            doc.add(offset: o.start, length: length, encoding: encoding, place: path, isDictValue: isDictValue)
        }
    }
}
