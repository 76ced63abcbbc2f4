/// The flat view of a location that reporters and tests read and write field by field
/// (the form `Location` had before provenance was one recursive value). Setting a field
/// rewrites the provenance's root (for path and git fields) or the binary place; a field
/// that does not exist for the root kind is left as it is.
extension Location {
    /// A location of `kind` at `path` (for `commit`: a blob whose commit fields are set
    /// afterwards; for `blob`: an unreachable blob whose id is set afterwards).
    public init(kind: Kind, path: String? = nil, byteOffset: Int, byteLength: Int) {
        let bytes = Array((path ?? "").utf8)
        let provenance: Provenance
        switch kind {
        case .file, .binary: provenance = .file(path: bytes)
        case .staged: provenance = .staged(path: bytes)
        case .commit: provenance = .commitBlob(.init(commit: "", author: "", email: "", date: "", blob: "", path: bytes))
        case .blob: provenance = .unreachableBlob(blob: "")
        }
        self.init(provenance, byteOffset: byteOffset, byteLength: byteLength)
        if kind == .binary { binary = BinaryPlace(format: "raw", fileOffset: byteOffset) }
    }

    /// `/`-separated path of the outermost input; see `rootPathBytes`.
    public var path: String? {
        get { provenance.rootPathBytes.map(Location.display) }
        set {
            let bytes = Array((newValue ?? "").utf8)
            provenance = provenance.mappingRoot { root in
                switch root {
                case .file: return .file(path: bytes)
                case .staged: return .staged(path: bytes)
                case .stdin: return .stdin(name: newValue ?? "")
                case .commitBlob(var b): b.path = bytes; return .commitBlob(b)
                default: return root
                }
            }
        }
    }

    private mutating func setBlobField(_ body: (inout Provenance.CommitBlob) -> Void) {
        provenance = provenance.mappingRoot { root in
            guard case .commitBlob(var b) = root else { return root }
            body(&b)
            return .commitBlob(b)
        }
    }

    public var commit: String? {
        get {
            switch provenance.root {
            case .commitBlob(let b): return b.commit
            case .commitText(let commit, _): return commit
            default: return nil
            }
        }
        set { setBlobField { $0.commit = newValue ?? "" } }
    }

    public var blob: String? {
        get {
            switch provenance.root {
            case .commitBlob(let b): return b.blob
            case .unreachableBlob(let blob): return blob
            default: return nil
            }
        }
        set {
            if case .unreachableBlob = provenance.root {
                provenance = provenance.mappingRoot { _ in .unreachableBlob(blob: newValue ?? "") }
            } else {
                setBlobField { $0.blob = newValue ?? "" }
            }
        }
    }

    public var author: String? {
        get { if case .commitBlob(let b) = provenance.root { return b.author }; return nil }
        set { setBlobField { $0.author = newValue ?? "" } }
    }
    public var email: String? {
        get { if case .commitBlob(let b) = provenance.root { return b.email }; return nil }
        set { setBlobField { $0.email = newValue ?? "" } }
    }
    public var date: String? {
        get { if case .commitBlob(let b) = provenance.root { return b.date }; return nil }
        set { setBlobField { $0.date = newValue ?? "" } }
    }

    private mutating func setBinary(_ body: (inout BinaryPlace) -> Void) {
        var place = binary ?? BinaryPlace(format: "raw", fileOffset: byteOffset)
        body(&place)
        binary = place
    }

    public var format: String? {
        get { binary?.format }
        set { setBinary { $0.format = newValue ?? "raw" } }
    }
    public var arch: String? {
        get { binary?.arch }
        set { setBinary { $0.arch = newValue } }
    }
    public var section: String? {
        get { binary?.section }
        set { setBinary { $0.section = newValue } }
    }
    public var fileOffset: Int? {
        get { binary?.fileOffset }
        set { let fallback = byteOffset; setBinary { $0.fileOffset = newValue ?? fallback } }
    }
    public var virtualAddress: UInt64? {
        get { binary?.virtualAddress }
        set { setBinary { $0.virtualAddress = newValue } }
    }
}

extension Provenance {
    /// The same nesting (archive members, decoded spans) around a new root.
    public func mappingRoot(_ transform: (Provenance) -> Provenance) -> Provenance {
        switch self {
        case .archiveMember(let parent, let member): return .archiveMember(parent: parent.mappingRoot(transform), member: member)
        case .decoded(let parent, let encoding, let range):
            return .decoded(parent: parent.mappingRoot(transform), encoding: encoding, sourceRange: range)
        default: return transform(self)
        }
    }
}
