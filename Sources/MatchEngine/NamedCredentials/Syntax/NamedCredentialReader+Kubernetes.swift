import Foundation
import ScanCore

/// A Kubernetes Secret's `data:` and `stringData:` entries: whatever their names, their
/// values are the secret (base64 under `data:`). Read from `kind: Secret` (its line holds the
/// rule's keyword): the `data:` keys within `manifestReach` bytes, up to `maximumEntries`
/// entries each.
extension NamedCredentialReader {
    static let manifestReach = 4096
    static let maximumEntries = 64
    private static let secretEntry = CredentialName(kind: .key, strong: true, provider: nil)

    /// Non-nil (the number of entries read) when the token is the `Secret` of `kind: Secret`
    /// (the keyword's line: the `data:` key is read wherever it is within `manifestReach`).
    /// The kind whose `data:` this reads, lowercase (`kind: Secret`).
    static let secretKind: [UInt8] = Array("secret".utf8)

    func readKubernetesSecret(nameStart: Int, nameEnd: Int, into found: inout [NamedCandidate]) -> Int? {
        // Compared in place: every six-letter word starting with `s` comes here (`string`,
        // `select`, `source`), so it makes no array for each.
        guard nameEnd - nameStart == 6, buffer[nameStart] | 0x20 == UInt8(ascii: "s"),
              zip(buffer[nameStart..<nameEnd], NamedCredentialReader.secretKind).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        var k = nameStart - 1
        if let q = byte(k), NamedCredentialReader.isQuote(q) { k -= 1 }
        while let b = byte(k), b == 0x20 || b == 0x09, nameStart - k < 8 { k -= 1 }
        guard k >= 4, buffer[(k - 4)...k].map({ $0 | 0x20 }) == Array("kind:".utf8) else { return nil }
        // Lines a window of an earlier `kind: Secret` read are not read again: many manifests
        // in one buffer cost one walk over it.
        let lo = max(0, nameStart - NamedCredentialReader.manifestReach, progress.manifestReadTo)
        let hi = min(buffer.count, nameStart + NamedCredentialReader.manifestReach)
        defer { progress.manifestReadTo = max(progress.manifestReadTo, hi) }
        var entries = 0
        var line = lo
        // From a line's start only (`metadata:` holds `data:`).
        while line > 0 && line < hi && buffer[line - 1] != 0x0A { line += 1 }
        while line < hi {
            let content = skipSpaces(line)
            var end = content
            while end < hi && buffer[end] != 0x0A { end += 1 }
            let word = buffer[content..<min(end, content + 12)].map { $0 | 0x20 }
            if word.starts(with: Array("data:".utf8)) || word.starts(with: Array("stringdata:".utf8)) {
                let encoded = word[0] == UInt8(ascii: "d")
                entries += readSecretData(keyStart: content, keyEnd: content + (encoded ? 4 : 10), encoded: encoded, into: &found) ?? 0
            }
            line = end + 1
        }
        return entries
    }

    /// The entries under a `data:` key (the key at `keyStart..<keyEnd`, then `:` and the line's end).
    private func readSecretData(keyStart nameStart: Int, keyEnd nameEnd: Int, encoded: Bool, into found: inout [NamedCandidate]) -> Int? {
        var i = skipSpaces(nameEnd + 1)
        if byte(i) == 0x0D { i += 1 }
        guard byte(i) == 0x0A, let start = lineStart(nameStart) else { return nil }
        let keyIndent = indent(from: start, to: nameStart)
        var line = i + 1
        var entries = 0
        while line < buffer.count && entries < NamedCredentialReader.maximumEntries {
            let content = skipSpaces(line)
            if byte(content) == 0x0A { line = content + 1; continue }
            guard content - line > keyIndent, let first = byte(content), first != 0x0A else { break }
            var end = content
            while end < buffer.count && buffer[end] != 0x0A && end - content < 4 * NamedCredentialReader.valueReach { end += 1 }
            if first != UInt8(ascii: "#"), let entry = readEntry(content..<end, encoded: encoded) { found.append(entry) }
            entries += 1
            let entryIndent = content - line
            line = end + 1
            // A block scalar's lines belong to their key: skip the deeper ones.
            while line < buffer.count {
                let c = skipSpaces(line)
                guard byte(c) != 0x0A, c - line > entryIndent else { break }
                var e = c
                while e < buffer.count && buffer[e] != 0x0A { e += 1 }
                line = e + 1
            }
        }
        return entries
    }

    /// One entry: the value (base64 under `data:`, as written under `stringData:`) is judged
    /// for what it holds (`SecretDataValue`), under the entry's own name when that names a
    /// credential (`db-password`, `api_token`) and as a key otherwise; the finding is the value's
    /// span as written, at the confidence of what it holds.
    private func readEntry(_ r: Range<Int>, encoded: Bool) -> NamedCandidate? {
        guard let colon = buffer[r].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var v = skipSpaces(colon + 1)
        if let b = byte(v), b == UInt8(ascii: "|") || b == UInt8(ascii: ">") {
            // The block's first line.
            while v < buffer.count && buffer[v] != 0x0A { v += 1 }
            v = skipSpaces(v + 1)
        }
        guard let read = readValue(at: v, bareTerminators: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x27 }) else { return nil }
        var key = r.lowerBound..<colon
        while let b = byte(key.upperBound - 1), key.count > 1, NamedCredentialReader.isQuote(b) || b == 0x20 { key = key.lowerBound..<(key.upperBound - 1) }
        while let b = byte(key.lowerBound), key.count > 1, NamedCredentialReader.isQuote(b) { key = (key.lowerBound + 1)..<key.upperBound }
        let keyBytes = UnsafeBufferPointer(rebasing: buffer[key])
        let name = names.score(keyBytes) ?? NamedCredentialReader.secretEntry
        let judge = SecretDataValue(names: names, name: name)
        let written = UnsafeBufferPointer(rebasing: buffer[read.value])
        let confidence: Confidence?
        if encoded, read.value.count <= 4 * NamedCredentialReader.valueReach, let data = Data(base64Encoded: Data(written)) {
            confidence = judge.decoded([UInt8](data), encoded: written, certificate: SecretDataValue.namesCertificate(keyBytes))
        } else {
            confidence = judge.text(Array(written))
        }
        guard let confidence else { return nil }
        return NamedCandidate(name: name, value: read.value, match: r.lowerBound..<read.end, form: .slot, confidence: confidence)
    }
}
