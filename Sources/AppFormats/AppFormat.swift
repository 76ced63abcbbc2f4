/// The app-bundle formats keyshape reads the strings of, told apart by content (their magic
/// numbers), never by name. The raw value is the contract's `location.format`.
public enum AppFormat: String, Sendable, Hashable, CaseIterable {
    /// Binary property list (`bplist00`): iOS `Info.plist` and other `.plist` files.
    case binaryPlist = "bplist"
    /// Android Dalvik executable (`classes.dex`).
    case dex = "dex"
    /// Android binary XML (`AndroidManifest.xml` and compiled layouts in an `.apk`).
    case androidXML = "android-xml"
    /// Android compiled resource table (`resources.arsc`).
    case resourceTable = "arsc"
    /// Java class file (`CAFEBABE`, a `.jar`'s `.class` members).
    case javaClass = "java-class"

    /// How many leading bytes `sniff` needs to decide every case.
    public static let sniffLength = 16

    /// The format named by the first bytes of `bytes` (pass at least `sniffLength`), nil for
    /// anything else.
    ///
    /// Android's chunk files have a weak magic (a chunk type and header size); both begin
    /// with a string pool chunk, and requiring its header too (12 of the first 16 bytes fixed)
    /// keeps a random binary from being taken for one and reported as malformed.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> AppFormat? {
        let b = Array(bytes.prefix(sniffLength))
        func at(_ i: Int) -> UInt8 { i < b.count ? b[i] : 0xff }
        if b.count >= 8, b.starts(with: Array("bplist00".utf8)) { return .binaryPlist }
        if b.count >= 8, b.starts(with: Array("dex\n".utf8)),
           (0x30...0x39).contains(at(4)), (0x30...0x39).contains(at(5)), (0x30...0x39).contains(at(6)), at(7) == 0 {
            return .dex
        }
        if b.count >= 8, at(0) == 0xca, at(1) == 0xfe, at(2) == 0xba, at(3) == 0xbe {
            // Shared with fat Mach-O, whose next word is a small slice count: a class file's
            // major version (bytes 6-7) is 45 or more (JDK 1.1 on).
            let major = Int(at(6)) << 8 | Int(at(7))
            return major >= 45 ? .javaClass : nil
        }
        // ResChunk_header {u16 type, u16 headerSize, u32 size}, little-endian; then a
        // ResStringPool_header {type 0x0001, headerSize 0x001C}.
        if b.count >= 16, at(1) == 0, at(3) == 0 {
            let poolAt = Int(at(2))
            let poolHead = poolAt + 4 <= b.count && at(poolAt) == 0x01 && at(poolAt + 1) == 0 && at(poolAt + 2) == 0x1c && at(poolAt + 3) == 0
            if at(0) == 0x03, at(2) == 0x08, poolHead { return .androidXML }
            if at(0) == 0x02, at(2) == 0x0c, poolHead { return .resourceTable }
        }
        return nil
    }
}
