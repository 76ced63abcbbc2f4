import AppFormats
import ObjectFiles

/// The layout stage for app-format files (`AppFormats`): the document of strings parsed from
/// the bytes already read (a blob, a member) or, for a file on disk, from the open
/// descriptor the chunks came from, never by path (as `BinaryLayout.load` reads object files).
///
/// Malformed files fall back to the raw-bytes scan, which runs whatever the layout says, and
/// every problem is an error entry (fail closed: exit 2): a structure that cannot be read at
/// all gives the raw layout; damage to some strings keeps the document for the rest.
enum AppFormatLayout {
    static func load(bytes: UnsafeRawBufferPointer) -> (BinaryLayout, [String]) {
        guard let format = AppFormat.sniff(bytes) else { return (.raw, []) }
        do {
            guard let document = try AppFormatParser.parse(bytes) else { return (.raw, []) }
            return (BinaryLayout(map: nil, document: document),
                    document.warnings.map { "malformed \(format.rawValue) (\($0)); its bytes are still scanned" })
        } catch let error as AppFormatError {
            return (.raw, ["malformed \(format.rawValue) (\(error.message)); scanned as raw bytes"])
        } catch {
            return (.raw, ["malformed \(format.rawValue); scanned as raw bytes"])
        }
    }

    /// A file on disk: read whole (it is at most `--max-file-size`, as every file the scan
    /// reads) for the parse, which needs the tables at its end (a plist's trailer) before the
    /// strings; the bytes are dropped once the document is made.
    static func load(fileDescriptor: Int32) -> (BinaryLayout, [String]) {
        do {
            let source = try FileByteSource(fileDescriptor: fileDescriptor)
            let bytes = try source.read(at: 0, count: source.size)
            return bytes.withUnsafeBytes { load(bytes: $0) }
        } catch let error as ObjectFileError {
            return (.raw, ["app-format file could not be read again for its strings (\(error.message)); scanned as raw bytes"])
        } catch {
            return (.raw, ["app-format file could not be read again for its strings; scanned as raw bytes"])
        }
    }
}
