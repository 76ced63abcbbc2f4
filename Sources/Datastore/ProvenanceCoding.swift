import ScanCore

/// A provenance as one line of text, for the findings table: the root, then each step
/// outwards (archive member, decoded span), `;`-separated. Every name is hex-encoded, so a
/// path with any bytes (separators, newlines, bytes that are not UTF-8) round-trips exactly
/// and two places never encode alike. Nothing here is a value: paths, ids, encodings.
///
///     f:PATH  i:NAME  s:PATH  u:BLOB  c:COMMIT:BLOB:AUTHOR:EMAIL:DATE:PATH
///     t:COMMIT:m  t:COMMIT:g:NAME  t:COMMIT:n:REF      ;a:MEMBER  ;d:ENCODING:LOWER:UPPER
enum ProvenanceCoding {
    static func encode(_ p: Provenance) -> String {
        switch p {
        case .file(let path): return "f:" + hex(path)
        case .stdin(let name): return "i:" + hex(name)
        case .staged(let path): return "s:" + hex(path)
        case .unreachableBlob(let blob): return "u:" + hex(blob)
        case .commitBlob(let b):
            return "c:" + [b.commit, b.blob, b.author, b.email, b.date].map(hex).joined(separator: ":") + ":" + hex(b.path)
        case .commitText(let commit, let field):
            switch field {
            case .message: return "t:" + hex(commit) + ":m"
            case .tag(let name): return "t:" + hex(commit) + ":g:" + hex(name)
            case .note(let ref): return "t:" + hex(commit) + ":n:" + hex(ref)
            }
        case .archiveMember(let parent, let member): return encode(parent) + ";a:" + hex(member)
        case .decoded(let parent, let encoding, let range):
            return encode(parent) + ";d:" + hex(encoding) + ":" + String(range.lowerBound) + ":" + String(range.upperBound)
        }
    }

    static func decode(_ text: String) -> Provenance? {
        let steps = text.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = steps.first, var p = root(first.split(separator: ":", omittingEmptySubsequences: false)) else { return nil }
        for step in steps.dropFirst() {
            let f = step.split(separator: ":", omittingEmptySubsequences: false)
            switch f.first {
            case "a" where f.count == 2:
                guard let member = bytes(f[1]) else { return nil }
                p = .archiveMember(parent: p, member: member)
            case "d" where f.count == 4:
                guard let encoding = string(f[1]), let lower = Int(f[2]), let upper = Int(f[3]), lower <= upper else { return nil }
                p = .decoded(parent: p, encoding: encoding, sourceRange: lower..<upper)
            default: return nil
            }
        }
        return p
    }

    private static func root(_ f: [Substring]) -> Provenance? {
        switch (f.first, f.count) {
        case ("f", 2): return bytes(f[1]).map { .file(path: $0) }
        case ("i", 2): return string(f[1]).map { .stdin(name: $0) }
        case ("s", 2): return bytes(f[1]).map { .staged(path: $0) }
        case ("u", 2): return string(f[1]).map { .unreachableBlob(blob: $0) }
        case ("c", 7):
            guard let commit = string(f[1]), let blob = string(f[2]), let author = string(f[3]), let email = string(f[4]),
                  let date = string(f[5]), let path = bytes(f[6]) else { return nil }
            return .commitBlob(.init(commit: commit, author: author, email: email, date: date, blob: blob, path: path))
        case ("t", 3) where f[2] == "m": return string(f[1]).map { .commitText(commit: $0, field: .message) }
        case ("t", 4) where f[2] == "g":
            guard let commit = string(f[1]), let name = string(f[3]) else { return nil }
            return .commitText(commit: commit, field: .tag(name: name))
        case ("t", 4) where f[2] == "n":
            guard let commit = string(f[1]), let ref = string(f[3]) else { return nil }
            return .commitText(commit: commit, field: .note(notesRef: ref))
        default: return nil
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    static func hex(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xf)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(_ hex: Substring) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    static func string(_ hex: Substring) -> String? { bytes(hex).map { String(decoding: $0, as: UTF8.self) } }
}
