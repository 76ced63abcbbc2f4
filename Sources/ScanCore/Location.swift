/// Where a finding is. Never what it is: no field here can hold a secret's bytes.
///
/// One flat value serves every input kind (file, binary, commit, blob, staged); the
/// fields that do not apply to a kind stay nil, and reporters print what is set.
public struct Location: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case file, binary, commit, blob, staged
    }

    public var kind: Kind
    /// `/`-separated, relative to the scanned root (the repository root for git inputs).
    public var path: String?
    /// 1-based; columns count Unicode scalars of the line. Absent for binaries.
    public var line: Int?
    public var column: Int?
    public var endLine: Int?
    public var endColumn: Int?
    /// The secret's span in the scanned buffer (file, section or blob).
    public var byteOffset: Int
    public var byteLength: Int

    // Binaries.
    public var format: String?
    public var arch: String?
    public var section: String?
    /// Absolute offset in the file on disk.
    public var fileOffset: Int?
    public var virtualAddress: UInt64?

    // Git.
    public var commit: String?
    public var blob: String?
    public var author: String?
    public var email: String?
    public var date: String?

    // Git metadata (kind `commit` with no `path`): which text of the commit the finding is in.
    /// `message` (the commit's message), `tag` (an annotated tag's message) or `note` (a git note).
    public var field: String?
    /// The annotated tag's name (field `tag`), as the tag object names itself.
    public var tag: String?
    /// The notes ref holding the note (field `note`), e.g. `refs/notes/commits`.
    public var notesRef: String?

    public init(kind: Kind, path: String? = nil, byteOffset: Int, byteLength: Int) {
        self.kind = kind
        self.path = path
        self.byteOffset = byteOffset
        self.byteLength = byteLength
    }
}

extension Location: Comparable {
    /// Report order: by path, then position, so output is stable across runs and `--jobs`.
    public static func < (a: Location, b: Location) -> Bool {
        let pa = a.path ?? "", pb = b.path ?? ""
        if pa != pb { return pa < pb }
        if (a.commit ?? "") != (b.commit ?? "") { return (a.commit ?? "") < (b.commit ?? "") }
        if (a.blob ?? "") != (b.blob ?? "") { return (a.blob ?? "") < (b.blob ?? "") }
        if (a.arch ?? "") != (b.arch ?? "") { return (a.arch ?? "") < (b.arch ?? "") }
        let oa = a.fileOffset ?? a.byteOffset, ob = b.fileOffset ?? b.byteOffset
        if oa != ob { return oa < ob }
        if a.byteLength != b.byteLength { return a.byteLength < b.byteLength }
        if (a.field ?? "") != (b.field ?? "") { return (a.field ?? "") < (b.field ?? "") }
        if (a.tag ?? "") != (b.tag ?? "") { return (a.tag ?? "") < (b.tag ?? "") }
        return (a.notesRef ?? "") < (b.notesRef ?? "")
    }
}
