/// One value of a rendered location: reporters map these to their own syntax.
public enum LocationValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case strings([String])
}

extension Location {
    /// The location as one ordered list of fields, what every structured reporter (JSON,
    /// JSONL, CSV...) prints. The order is the contract's and is kept for the kinds that
    /// existed before (`kind`, commit fields, `path`, binary place, text position, byte
    /// span); the later additions slot in where they belong: `field`/`tag`/`notesRef`
    /// after `commit`, `archive` and `decoded` after `path`.
    public var fields: [(String, LocationValue)] {
        var out: [(String, LocationValue)] = [("kind", .string(kind.rawValue))]
        func add(_ key: String, _ value: String?) { if let value { out.append((key, .string(value))) } }
        func add(_ key: String, _ value: Int?) { if let value { out.append((key, .int(value))) } }
        let root = provenance.root
        add("commit", commit)
        if case .commitText(_, let field) = root {
            add("field", field.name)
            if case .tag(let name) = field { add("tag", name) }
            if case .note(let ref) = field { add("notesRef", ref) }
        }
        add("blob", blob)
        add("author", author)
        add("email", email)
        add("date", date)
        add("path", path)
        let members = provenance.archiveMembers
        if !members.isEmpty { out.append(("archive", .strings(members.map(Location.display)))) }
        let encodings = provenance.encodings
        if !encodings.isEmpty { out.append(("decoded", .strings(encodings))) }
        add("format", format)
        add("arch", arch)
        add("section", section)
        add("fileOffset", fileOffset)
        add("virtualAddress", virtualAddress.map { "0x" + String($0, radix: 16) })
        add("line", line)
        add("column", column)
        add("endLine", endLine)
        add("endColumn", endColumn)
        out.append(("byteOffset", .int(byteOffset)))
        out.append(("byteLength", .int(byteLength)))
        return out
    }

    /// The one text form of a location, every name escaped (`DisplayText`):
    ///
    /// - text: `path:line:column`; binary: `path:arch:section+0xOFFSET` (`raw` or the
    ///   format when no section holds the byte);
    /// - inside archives the members follow the path, joined by `!`:
    ///   `libs.zip!inner.jar!application.properties:3:12`;
    /// - history: the short commit first, `a1b2c3d path:line:column`; commit text
    ///   `a1b2c3d message:line:column`, `a1b2c3d tag NAME:…`, `a1b2c3d note REF:…`;
    /// - an unreachable blob: `blob ID+0xOFFSET`.
    ///
    /// Decoded text is shown at the encoded text's position, as the contract asks.
    public var text: String {
        let e = DisplayText.escaped
        var name: String
        var prefix = ""
        switch provenance.root {
        case .unreachableBlob(let blob):
            if provenance.archiveMembers.isEmpty {
                return "blob \(e(blob))+0x\(String(fileOffset ?? byteOffset, radix: 16))"
            }
            name = "blob " + e(blob)
        case .commitText(let commit, let field):
            prefix = e(String(commit.prefix(7))) + " "
            switch field {
            case .message: name = "message"
            case .tag(let tag): name = "tag " + e(tag)
            case .note(let ref): name = "note " + e(ref)
            }
        case .commitBlob(let b):
            prefix = e(String(b.commit.prefix(7))) + " "
            name = e(Location.display(b.path))
        default:
            name = e(path ?? "")
        }
        for member in provenance.archiveMembers { name += "!" + e(Location.display(member)) }
        if let binary {
            var parts = [name]
            if let arch = binary.arch { parts.append(e(arch)) }
            parts.append(e(binary.section ?? binary.format) + "+0x" + String(binary.fileOffset, radix: 16))
            return prefix + parts.joined(separator: ":")
        }
        return prefix + "\(name):\(line ?? 0):\(column ?? 0)"
    }
}
