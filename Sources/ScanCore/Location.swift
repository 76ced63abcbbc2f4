/// Where a finding is. Never what it is: no field here can hold a secret's bytes.
///
/// A provenance (which input, down through archive members and decoded spans) plus the
/// position inside the buffer that provenance names: line and column for text, the binary
/// place (format, arch, section, offset, address) for an object file's bytes, and the
/// secret's byte span. Reporters render it through `fields` (one ordered list for JSON,
/// JSONL and CSV) and `text` (the one text form), so a new provenance kind is rendered by
/// every format at once.
public struct Location: Sendable, Hashable {
    /// The contract's `location.kind`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case file, binary, commit, blob, staged
    }

    public var provenance: Provenance
    /// 1-based; columns count Unicode scalars of the line. Absent for binaries.
    public var line: Int?
    public var column: Int?
    public var endLine: Int?
    public var endColumn: Int?
    /// Set when the buffer was not text (an object file's bytes, or raw binary data).
    public var binary: BinaryPlace?
    /// The secret's span in the scanned buffer (file, section or blob).
    public var byteOffset: Int
    public var byteLength: Int

    public init(_ provenance: Provenance, byteOffset: Int, byteLength: Int) {
        self.provenance = provenance
        self.byteOffset = byteOffset
        self.byteLength = byteLength
    }

    /// Sets the text position in one go.
    public mutating func setText(line: Int, column: Int, endLine: Int, endColumn: Int) {
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
    }

    /// `binary` for a file's (or standard input's) object-file bytes; otherwise the kind of
    /// the input the provenance starts from.
    public var kind: Kind {
        switch provenance.root {
        case .file, .stdin: return binary == nil ? .file : .binary
        case .staged: return .staged
        case .commitBlob, .commitText: return .commit
        case .unreachableBlob: return .blob
        case .archiveMember, .decoded: return .file  // never: `root` peels these
        }
    }

    /// Raw path bytes for reports: valid UTF-8 as it is, invalid bytes as `\xNN`.
    public static func display(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        return DisplayText.showingInvalidUTF8(bytes)
    }
}

/// Where in an object file's bytes a secret lies.
public struct BinaryPlace: Sendable, Hashable {
    /// `mach-o`, `elf` or `raw`.
    public var format: String
    /// The slice's architecture (`arm64`, `x86_64`, ...), when known.
    public var arch: String?
    /// `__TEXT,__cstring`, `.rodata`, ...: the narrowest section holding the byte.
    public var section: String?
    /// Absolute, in the buffer the provenance names (the file on disk, the blob, the member).
    public var fileOffset: Int
    /// When the section is mapped.
    public var virtualAddress: UInt64?

    public init(format: String, arch: String? = nil, section: String? = nil, fileOffset: Int, virtualAddress: UInt64? = nil) {
        self.format = format
        self.arch = arch
        self.section = section
        self.fileOffset = fileOffset
        self.virtualAddress = virtualAddress
    }
}

extension Location: Comparable {
    /// Report order: by path, then position, so output is stable across runs and `--jobs`.
    public static func < (a: Location, b: Location) -> Bool {
        let pa = a.path ?? "", pb = b.path ?? ""
        if pa != pb { return pa < pb }
        if (a.commit ?? "") != (b.commit ?? "") { return (a.commit ?? "") < (b.commit ?? "") }
        if (a.blob ?? "") != (b.blob ?? "") { return (a.blob ?? "") < (b.blob ?? "") }
        let ma = a.provenance.archiveMembers, mb = b.provenance.archiveMembers
        if ma != mb { return ma.lexicographicallyPrecedes(mb) { $0.lexicographicallyPrecedes($1) } }
        let ta = a.textKey, tb = b.textKey
        if ta != tb { return ta < tb }
        if (a.arch ?? "") != (b.arch ?? "") { return (a.arch ?? "") < (b.arch ?? "") }
        let oa = a.fileOffset ?? a.byteOffset, ob = b.fileOffset ?? b.byteOffset
        if oa != ob { return oa < ob }
        if a.byteLength != b.byteLength { return a.byteLength < b.byteLength }
        return a.provenance.encodings.lexicographicallyPrecedes(b.provenance.encodings)
    }

    /// Commit text of one commit: message, then tags, then notes.
    private var textKey: String {
        guard case .commitText(_, let field) = provenance.root else { return "" }
        switch field {
        case .message: return "0"
        case .tag(let name): return "1" + name
        case .note(let ref): return "2" + ref
        }
    }
}
