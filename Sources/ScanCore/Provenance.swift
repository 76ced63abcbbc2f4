/// Where a scanned buffer came from: one recursive value for every input, so reporters
/// render any of them with the same code (`Location.fields`, `Location.text`) and one
/// function computes every fingerprint (`Provenance.fingerprintPlace`).
///
/// Paths are kept as the raw bytes the file system or git gave: two names that differ only
/// in bytes that are not UTF-8 stay two places. Nothing here can hold a secret's bytes.
public indirect enum Provenance: Sendable, Hashable {
    /// A file under the scanned root (`/`-separated, relative to it).
    case file(path: [UInt8])
    /// Standard input, reported under `name` (`--stdin-name`, default `-`).
    case stdin(name: String)
    /// The staged version of a file (path relative to the repository root).
    case staged(path: [UInt8])
    /// A blob at a path in the commit that added what was found there.
    case commitBlob(CommitBlob)
    /// An object no scanned commit reaches (`--all-objects`); 40 hex digits.
    case unreachableBlob(blob: String)
    /// A commit's message, an annotated tag's message or a note: `commit` is the commit the
    /// text belongs to (for a tag, the commit it points at).
    case commitText(commit: String, field: CommitTextField)
    /// A member of an archive that `parent` holds (members nest: a jar in a zip is a
    /// member whose parent is itself a member).
    case archiveMember(parent: Provenance, member: [UInt8])
    /// Text decoded from `sourceRange` (byte offsets in the buffer `parent` names) with
    /// `encoding` (`base64`, `hex`, ...).
    case decoded(parent: Provenance, encoding: String, sourceRange: Range<Int>)

    /// The blob side of `commitBlob`.
    public struct CommitBlob: Sendable, Hashable {
        public var commit: String
        public var author: String
        public var email: String
        /// ISO 8601.
        public var date: String
        public var blob: String
        public var path: [UInt8]

        public init(commit: String, author: String, email: String, date: String, blob: String, path: [UInt8]) {
            self.commit = commit
            self.author = author
            self.email = email
            self.date = date
            self.blob = blob
            self.path = path
        }
    }

    /// Which text of a commit.
    public enum CommitTextField: Sendable, Hashable {
        case message
        case tag(name: String)
        case note(notesRef: String)

        /// The contract's `field` value.
        public var name: String {
            switch self {
            case .message: return "message"
            case .tag: return "tag"
            case .note: return "note"
            }
        }
    }

    /// The input this buffer came from, archives and decoders peeled off.
    public var root: Provenance {
        switch self {
        case .archiveMember(let parent, _), .decoded(let parent, _, _): return parent.root
        default: return self
        }
    }

    /// The buffer a decoded span lies in: this provenance without its decoded steps (archive
    /// members are inputs of their own and stay).
    public var undecoded: Provenance {
        if case .decoded(let parent, _, _) = self { return parent.undecoded }
        return self
    }

    /// Whether the bytes were decoded from an encoded span.
    public var isDecoded: Bool {
        if case .decoded = self { return true }
        return false
    }

    /// The path of the outermost input (nil for an unreachable blob and for commit text).
    public var rootPathBytes: [UInt8]? {
        switch root {
        case .file(let path), .staged(let path): return path
        case .stdin(let name): return Array(name.utf8)
        case .commitBlob(let b): return b.path
        case .unreachableBlob, .commitText, .archiveMember, .decoded: return nil
        }
    }

    /// The archive members from the outermost archive in (empty outside archives).
    public var archiveMembers: [[UInt8]] {
        switch self {
        case .archiveMember(let parent, let member): return parent.archiveMembers + [member]
        case .decoded(let parent, _, _): return parent.archiveMembers
        default: return []
        }
    }

    /// The encodings from the outside in (empty for text that was not decoded).
    public var encodings: [String] {
        switch self {
        case .archiveMember(let parent, _): return parent.encodings
        case .decoded(let parent, let encoding, _): return parent.encodings + [encoding]
        default: return []
        }
    }

    /// What a fingerprint is derived from besides rule and secret hash (see
    /// `Fingerprint.make`): the path chain (outer path, then each archive member, joined by
    /// `!`), and a qualifier in the section slot where no path identifies the place.
    ///
    /// - file, staged, blob in a commit: the path; the same file's content has the same
    ///   fingerprint under `scan`, `staged` and `history` (the binary section, when there
    ///   is one, comes from the location, not from here).
    /// - standard input: its name, as it is reported.
    /// - unreachable blob: no path, the blob id as qualifier (as keyshape always gave).
    /// - archive member: `outer!member!inner`: the members are part of the place.
    /// - decoded text: its parent's: decoding is how the secret was seen, not where it is,
    ///   so the same key in a file is one place whether written plain or encoded.
    /// - commit text: the commit id as path and `message`, `tag:NAME` or `note:REF` as
    ///   qualifier: the same text in another commit is another place.
    public var fingerprintPlace: (pathBytes: [UInt8], qualifier: String?) {
        switch self {
        case .file(let path), .staged(let path): return (path, nil)
        case .stdin(let name): return (Array(name.utf8), nil)
        case .commitBlob(let b): return (b.path, nil)
        case .unreachableBlob(let blob): return ([], blob)
        case .commitText(let commit, let field):
            switch field {
            case .message: return (Array(commit.utf8), "message")
            case .tag(let name): return (Array(commit.utf8), "tag:" + name)
            case .note(let ref): return (Array(commit.utf8), "note:" + ref)
            }
        case .archiveMember(let parent, let member):
            let outer = parent.fingerprintPlace
            return (outer.pathBytes + Array("!".utf8) + member, outer.qualifier)
        case .decoded(let parent, _, _): return parent.fingerprintPlace
        }
    }
}
