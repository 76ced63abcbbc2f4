#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileInputs
import ObjectFiles
import ScanCore

/// Names the place of a byte in a binary file: format, fat slice arch, section and virtual
/// address, from the file's object map. Files that are not Mach-O or ELF are `raw`.
struct BinaryLayout {
    let map: ObjectMap?

    static let raw = BinaryLayout(map: nil)

    /// Maps `entry` when its first bytes are a Mach-O, fat or ELF magic number. A malformed
    /// object file gives an error message and the raw layout: its bytes are still scanned.
    static func load(_ entry: FileEntry, firstBytes: UnsafeRawBufferPointer) -> (BinaryLayout, String?) {
        let head = Array(firstBytes.prefix(ObjectFileParser.sniffLength))
        guard ObjectFileParser.sniff(head) != nil else { return (.raw, nil) }
        let fd = entry.osPath.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return (.raw, FileWalker.describe(errno)) }
        defer { close(fd) }
        do {
            let map = try ObjectFileParser.parse(try FileByteSource(fileDescriptor: fd))
            return (BinaryLayout(map: map), nil)
        } catch let error as ObjectFileError {
            return (.raw, "malformed binary (\(error.message)); scanned as raw bytes")
        } catch {
            return (.raw, "malformed binary; scanned as raw bytes")
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
