import ObjectFiles
import ScanCore

/// Names the place of a byte in a binary file: format, fat slice arch, section and virtual
/// address, from the file's object map. Files that are not Mach-O or ELF are `raw`.
struct BinaryLayout {
    let map: ObjectMap?

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
        guard ObjectFileParser.sniff(head) != nil else { return (.raw, []) }
        do {
            let map = try ObjectFileParser.parse(try FileByteSource(fileDescriptor: fileDescriptor))
            return (BinaryLayout(map: map), map.warnings.map { "malformed binary (\($0)); its bytes are still scanned" })
        } catch let error as ObjectFileError {
            return (.raw, ["malformed binary (\(error.message)); scanned as raw bytes"])
        } catch {
            return (.raw, ["malformed binary; scanned as raw bytes"])
        }
    }

    /// Fills the binary fields of `location` for the byte at absolute `offset`.
    func describe(_ offset: Int, into location: inout Location) {
        location.fileOffset = offset
        guard let map, let place = map.locate(offset) else {
            location.format = map?.format.rawValue ?? ObjectFormat.raw.rawValue
            return
        }
        location.format = place.slice.format.rawValue
        location.arch = place.slice.arch
        location.section = place.region?.name
        location.virtualAddress = place.virtualAddress
    }
}
