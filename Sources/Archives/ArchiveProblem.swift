import ScanCore

/// Something in an archive that could not be read, as a value: the reader carries on with
/// the rest of the archive where the format allows it, and the caller reports each problem
/// (an error entry, exit 2).
///
/// `message` is fixed text chosen by the kind, so it never quotes archive content.
/// `detail` is libarchive's own message, escaped and cut short: it can name an entry, so it
/// is printed like a path, never raw.
public struct ArchiveProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The bytes looked like an archive by their magic number, but libarchive could not open them.
        case unreadable
        /// A damaged header or compressed stream.
        case corrupt
        /// The archive ends before its own structures say it does.
        case truncated
        /// An encrypted member: its content cannot be scanned.
        case encrypted
        /// A member in a compression method libarchive does not read (deflate64, implode):
        /// other readers do, so it is never taken for damage.
        case unsupported
        /// `maxExpandedBytes` reached: this member and everything after it are not scanned.
        case sizeLimit
        /// A member expands more than `maxCompressionRatio` times its compressed size.
        case ratioLimit
        /// `maxMembers` reached.
        case memberLimit
        /// More than `maxProblems` problems: the rest is not read.
        case problemLimit
        /// An archive nested deeper than `maxDepth`: not opened.
        case depthLimit
        /// After a problem in a compressed stream the members that follow cannot be reached.
        case remainderUnread
        /// The source itself (file descriptor) could not be read.
        case sourceUnreadable
        /// A zip entry whose data is shared with another entry's (two directory entries at
        /// one local header, or one inside another's data): not read.
        case overlapping
    }

    public var kind: Kind
    /// The member chain from the outermost archive the reader knows in; empty: the archive
    /// itself. A caller that reads a nested archive prepends the outer member with `nested(in:)`.
    public var members: [[UInt8]]
    public var detail: String?

    public init(_ kind: Kind, member: [UInt8]? = nil, detail: String? = nil) {
        self.kind = kind
        self.members = member.map { [$0] } ?? []
        self.detail = detail
    }

    /// The same problem seen from the archive that holds this one as `member`.
    public func nested(in member: [UInt8]) -> ArchiveProblem {
        var copy = self
        copy.members.insert(member, at: 0)
        return copy
    }

    public var message: String {
        switch kind {
        case .unreadable: return "not a readable archive"
        case .corrupt: return "corrupt archive data"
        case .truncated: return "truncated archive"
        case .encrypted: return "encrypted member not scanned"
        case .unsupported: return "member uses a compression method keyshape cannot read; not scanned"
        case .sizeLimit: return "archive expands past the size limit; the rest is not scanned"
        case .ratioLimit: return "member compressed more than the ratio limit allows; the rest of it is not scanned"
        case .memberLimit: return "archive holds more members than the limit; the rest are not scanned"
        case .problemLimit: return "too many problems in one archive; the rest is not scanned"
        case .depthLimit: return "archive nested deeper than the depth limit; not opened"
        case .remainderUnread: return "the members after this point cannot be reached; not scanned"
        case .sourceUnreadable: return "archive could not be read"
        case .overlapping: return "zip entry overlaps another entry's data (a zip bomb's construction); not scanned"
        }
    }

    /// `member!inner: message (detail)`, every name escaped.
    public var description: String {
        var text = members.map { DisplayText.escaped(bytes: $0) }.joined(separator: "!")
        if !text.isEmpty { text += ": " }
        text += message
        if let detail { text += " (\(detail))" }
        return text
    }

    /// libarchive's message made printable: escaped like a path and at most 160 characters.
    static func detail(from cString: UnsafePointer<CChar>?) -> String? {
        guard let cString else { return nil }
        let length = strnlen(cString, 4096)
        let bytes = UnsafeRawBufferPointer(start: cString, count: length)
        var text = DisplayText.escaped(bytes: bytes)
        if text.unicodeScalars.count > 160 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(160))) + "…"
        }
        return text.isEmpty ? nil : text
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
