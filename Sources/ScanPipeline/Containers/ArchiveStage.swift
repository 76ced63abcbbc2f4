import Archives
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Archives, through libarchive (`Archives`): zip and everything built on it (ipa, apk, jar,
/// docx...), tar, ar, and gzip, bzip2, xz and zstd streams, recognised by content
/// (`ArchiveKind.sniff`), never by name; a zip behind other bytes (a self-extractor) by the
/// end record that ends the input. Members are read by `ArchiveMemberScan`, each back through
/// the front; archives nested in members are read by the same walk, under the top-level
/// archive's one budget (`ArchiveBudget`), to `--max-archive-depth`.
///
/// A format libarchive reads is added in `Archives`: its magic number in `ArchiveKind` and
/// its reader in `ArchiveSession.open`; this stage then claims and opens it unchanged.
final class ArchiveStage: ContainerStage {
    var name: String { "archive" }

    /// From its first byte by its magic number (`.members`); with the end at hand, a zip's
    /// end record ending the input behind other bytes (`.membersAndBytes`).
    func claim(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int) -> ContainerOpening? {
        if ArchiveKind.sniff(head: head, tail: nil, totalSize: nil) != nil { return .members }
        guard let tail,
              ArchiveKind.sniff(head: UnsafeRawBufferPointer(start: nil, count: 0), tail: tail, totalSize: Int64(totalSize)) == .zip
        else { return nil }
        return .membersAndBytes
    }

    func open(_ input: ContainerInput, front: InputFront, sink: InputFront.Sink) -> Int {
        ArchiveMemberScan(front: front, stage: self).scan(input, sink: sink).bytes
    }

    /// A zip local header's fixed part.
    static let localHeaderLength = 30

    /// The first zip local header at or after `from` in `window` that looks like one (a
    /// version, a method zip defines, a name of 1 to 4,096 bytes, none of them NUL where they
    /// are in the window); else the search resumes where a header cut by the window's end
    /// may start.
    func appendedStart(in window: UnsafeRawBufferPointer, from: Int) -> AppendedSearch {
        let filled = window.count, headerLength = ArchiveStage.localHeaderLength
        var i = from
        while i + headerLength <= filled {
            guard let hit = memchr(window.baseAddress! + i, 0x50, filled - headerLength + 1 - i) else { break }
            i = UnsafeRawPointer(hit) - window.baseAddress!
            if window[i + 1] == 0x4b, window[i + 2] == 0x03, window[i + 3] == 0x04 {
                let version = Int(window[i + 4]) | Int(window[i + 5]) << 8
                let method = Int(window[i + 8]) | Int(window[i + 9]) << 8
                let nameLength = Int(window[i + 26]) | Int(window[i + 27]) << 8
                let nameEnd = min(filled, i + headerLength + nameLength)
                if version <= 63, [0, 8, 9, 12, 14, 93, 95, 98].contains(method), (1...4096).contains(nameLength),
                   memchr(window.baseAddress! + i + headerLength, 0, nameEnd - i - headerLength) == nil {
                    return .found(i)
                }
            }
            i += 1
        }
        return .notFound(resumeFrom: max(0, filled - headerLength))
    }

    var appendedStartMissing: String {
        "a zip's end record ends this blob, but no local header of it was found in the stream; its members are not read, its bytes are scanned"
    }
}
