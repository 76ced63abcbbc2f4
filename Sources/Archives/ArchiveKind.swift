#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import POSIXIO

/// What an input's own bytes say it is, by magic number, never by its name: an `.ipa`
/// renamed `.bin` is still opened, and a text file named `.zip` is still scanned as text.
public enum ArchiveKind: String, Sendable, Hashable {
    /// Zip and everything built on it (ipa, apk, aab, jar, war, aar, whl, nupkg, xpi, docx...),
    /// also when appended to another file (a self-extracting archive).
    case zip
    case tar
    /// Unix ar: .deb packages, static libraries.
    case ar
    /// A compressed stream: usually a tar inside (.tgz, npm packages, image layers); any
    /// other content is read as one member.
    case gzip, bzip2, xz, zstd

    /// How many leading bytes `sniff` looks at (a tar header is 512 bytes).
    public static let headLength = 512
    /// How many trailing bytes hold a zip's end-of-central-directory record: the 22-byte
    /// record plus a comment of at most 65,535 bytes.
    public static let tailLength = 22 + 65_535

    /// The kind of `head` (the first bytes) with `tail` (the last bytes, up to `tailLength`,
    /// when the whole input's end is known; nil for a stream).
    public static func sniff(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int64?) -> ArchiveKind? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            guard head.count >= offset + magic.count else { return false }
            for (i, byte) in magic.enumerated() where head[offset + i] != byte { return false }
            return true
        }
        if starts([0x50, 0x4b, 0x03, 0x04]) || starts([0x50, 0x4b, 0x07, 0x08, 0x50, 0x4b, 0x03, 0x04]) { return .zip }
        if starts(Array("!<arch>\n".utf8)) { return .ar }
        if starts([0x1f, 0x8b, 0x08]) { return .gzip }
        if starts(Array("BZh".utf8)), head.count > 3, (0x31...0x39).contains(head[3]) { return .bzip2 }
        if starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) { return .xz }
        if starts([0x28, 0xb5, 0x2f, 0xfd]) { return .zstd }
        if isTarHeader(head) { return .tar }
        if let tail, let totalSize, hasEndOfCentralDirectory(tail, totalSize: totalSize) { return .zip }
        return nil
    }

    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ArchiveKind? {
        let head = UnsafeRawBufferPointer(rebasing: bytes.prefix(headLength))
        let tail = UnsafeRawBufferPointer(rebasing: bytes.suffix(tailLength))
        return sniff(head: head, tail: tail, totalSize: Int64(bytes.count))
    }

    public static func sniff(_ bytes: [UInt8]) -> ArchiveKind? {
        bytes.withUnsafeBytes { sniff($0) }
    }

    /// A regular file's kind, read with pread through `POSIX` (EINTR retried, short reads
    /// continued; the descriptor's offset is not moved); nil when it is not an archive or its
    /// first bytes cannot be read (the caller's own read reports that). The end is used only
    /// when all of it was read.
    public static func sniff(fileDescriptor fd: Int32) -> ArchiveKind? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int64(info.st_size)
        var head = [UInt8](repeating: 0, count: headLength)
        let got = head.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: 0) }.count
        guard got > 0 else { return nil }
        let tailCount = Int(min(Int64(tailLength), size))
        var tail = [UInt8](repeating: 0, count: tailCount)
        let tailGot = tail.withUnsafeMutableBytes { POSIX.preadFully(fd, into: $0, at: size - Int64(tailCount)) }
        return head.withUnsafeBytes { headBytes in
            tail.withUnsafeBytes { tailBytes in
                sniff(head: UnsafeRawBufferPointer(rebasing: headBytes.prefix(got)),
                      tail: tailGot.count == tailCount && tailGot.error == nil ? tailBytes : nil, totalSize: size)
            }
        }
    }

    /// Whether this kind is a compressed stream, which cannot skip a member without
    /// decompressing it.
    public var isCompressedStream: Bool {
        switch self {
        case .gzip, .bzip2, .xz, .zstd: return true
        case .zip, .tar, .ar: return false
        }
    }

    /// A tar header: the POSIX/GNU magic at 257, or (old v7 tar, no magic) a name and a
    /// header checksum that adds up.
    public static func isTarHeader(_ head: UnsafeRawBufferPointer) -> Bool {
        guard head.count >= 512 else { return false }
        if head[257] == 0x75, head[258] == 0x73, head[259] == 0x74, head[260] == 0x61, head[261] == 0x72,
           head[262] == 0 || head[262] == 0x20 {
            return checksumMatches(head)
        }
        return head[0] != 0 && checksumMatches(head)
    }

    /// The header checksum: the sum of the 512 bytes with the checksum field read as spaces,
    /// written in octal at 148.
    private static func checksumMatches(_ head: UnsafeRawBufferPointer) -> Bool {
        var stored: Int = 0
        var digits = 0
        var index = 148
        while index < 156, head[index] == 0x20 { index += 1 }
        while index < 156, (0x30...0x37).contains(head[index]) {
            stored = stored * 8 + Int(head[index] - 0x30)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return false }
        var sum = 0
        for i in 0..<512 { sum += (148..<156).contains(i) ? 0x20 : Int(head[i]) }
        return sum == stored
    }

    /// A zip's end-of-central-directory record ("PK\5\6") whose comment ends exactly at the
    /// end of the input, so data in front of the zip (a self-extractor's stub) is allowed.
    static func hasEndOfCentralDirectory(_ tail: UnsafeRawBufferPointer, totalSize: Int64) -> Bool {
        guard tail.count >= 22, let base = tail.baseAddress else { return false }
        // Every blob of a history is sniffed, text ones too: the signature's third byte
        // (0x05, which text nearly never holds) is looked for with memchr, not the whole
        // signature byte by byte from the end (that loop was a tenth of keyshape's CPU on a
        // history of text files, for a record that is nearly never there). Each occurrence
        // is checked as before, so the answer is the same.
        let last = tail.count - 22
        var at = 2
        while at <= last + 2 {
            guard let hit = memchr(base + at, 0x05, last + 3 - at) else { return false }
            let i = UnsafeRawPointer(hit) - base - 2
            if tail[i] == 0x50, tail[i + 1] == 0x4b, tail[i + 3] == 0x06 {
                let commentLength = Int(tail[i + 20]) | Int(tail[i + 21]) << 8
                if i + 22 + commentLength == tail.count {
                    // Something must precede the record for it to describe members (an empty
                    // zip is 22 bytes and has nothing to scan).
                    return totalSize > 22
                }
            }
            at = i + 3
        }
        return false
    }
}
