import AppFormats
import ObjectFiles
import ScanCore

/// Names the place of a byte in a binary file: format, fat slice arch, section and virtual
/// address, from the file's object map. Files that are not Mach-O or ELF are `raw`, unless
/// their content names an app format (`AppFormatLayout`: a binary plist, DEX, Android
/// binary XML or resource table, Java class file), whose strings name their place.
struct BinaryLayout {
    let map: ObjectMap?
    /// The strings of an app-format file, for their places and for `AppStringsTransform`.
    var document: AppDocument? = nil

    static let raw = BinaryLayout(map: nil)

    /// Maps the open file `fileDescriptor` when its first bytes are a Mach-O, fat or ELF
    /// magic number. Reads through the descriptor the chunks came from, never by path: a
    /// name swapped for a FIFO after the first read would block an open forever, and one
    /// swapped for another file would map bytes that were never scanned.
    /// - Returns: the layout, and the problems to report as error entries: a malformed
    ///   object file gives the raw layout; a map that had to drop sections or segments
    ///   lying outside the file (or a name outside its table) is kept, its problems named.
    ///   Either way every byte is still scanned.
    static func load(fileDescriptor: Int32, firstBytes: UnsafeRawBufferPointer) -> (BinaryLayout, [String]) {
        let head = Array(firstBytes.prefix(ObjectFileParser.sniffLength))
        guard ObjectFileParser.sniff(head) != nil else {
            return AppFormat.sniff(firstBytes) == nil ? (.raw, []) : AppFormatLayout.load(fileDescriptor: fileDescriptor)
        }
        do {
            return load(from: try FileByteSource(fileDescriptor: fileDescriptor))
        } catch let error as ObjectFileError {
            return (.raw, ["malformed binary (\(error.message)); scanned as raw bytes"])
        } catch {
            return (.raw, ["malformed binary; scanned as raw bytes"])
        }
    }

    /// The same for a buffer already in memory (a blob, a staged file, an archive member):
    /// the map is parsed from the bytes read, never from a file opened again.
    static func load(bytes: UnsafeRawBufferPointer) -> (BinaryLayout, [String]) {
        let head = Array(bytes.prefix(ObjectFileParser.sniffLength))
        guard ObjectFileParser.sniff(head) != nil else { return AppFormatLayout.load(bytes: bytes) }
        return load(from: BufferByteSource(bytes))
    }

    private static func load(from source: ByteSource) -> (BinaryLayout, [String]) {
        do {
            let map = try ObjectFileParser.parse(source)
            return (BinaryLayout(map: map), map.warnings.map { "malformed binary (\($0)); its bytes are still scanned" })
        } catch let error as ObjectFileError {
            return (.raw, ["malformed binary (\(error.message)); scanned as raw bytes"])
        } catch {
            return (.raw, ["malformed binary; scanned as raw bytes"])
        }
    }

    /// The binary place of the byte at absolute `offset` (in the buffer the map was made from).
    func place(_ offset: Int) -> BinaryPlace {
        if let document { return BinaryPlace(format: document.format.rawValue, section: document.place(of: offset), fileOffset: offset) }
        guard let map, let found = map.locate(offset) else {
            return BinaryPlace(format: map?.format.rawValue ?? ObjectFormat.raw.rawValue, fileOffset: offset)
        }
        return BinaryPlace(format: found.slice.format.rawValue, arch: found.slice.arch, section: found.region?.name,
                           fileOffset: offset, virtualAddress: found.virtualAddress)
    }
}

/// A buffer in memory as a `ByteSource`, without a copy: valid only while the buffer is
/// (the parse that uses it runs and ends inside the buffer's lifetime).
struct BufferByteSource: ByteSource {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var size: Int { bytes.count }

    func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw ObjectFileError("read of \(count) bytes at offset \(offset) is outside the file (size \(size))")
        }
        return Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
    }
}
