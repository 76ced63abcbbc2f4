/// YAML's value on the line after its key (`password:` then an indented scalar) and block
/// scalars (`token: |` or `>` then indented lines: the first line is read).
extension NamedCredentialReader {
    func readYAMLNextLine(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        var i = nameEnd
        while let b = byte(i), NamedCredentialReader.isQuote(b), i - nameEnd < 1 { i += 1 }
        guard byte(i) == UInt8(ascii: ":") else { return nil }
        i = skipSpaces(i + 1)
        // A block scalar indicator, with its chomping and indentation marks.
        if let b = byte(i), b == UInt8(ascii: "|") || b == UInt8(ascii: ">") {
            i += 1
            while let b = byte(i), b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || CredentialNameScorer.isDigit(b) { i += 1 }
            i = skipSpaces(i)
        }
        if byte(i) == 0x0D { i += 1 }
        guard byte(i) == 0x0A, let start = lineStart(nameStart) else { return nil }
        let keyIndent = indent(from: start, to: nameStart)
        var next = i + 1
        let valueStart = skipSpaces(next)
        guard valueStart - next > keyIndent, let first = byte(valueStart), first > 0x20, first != UInt8(ascii: "-"), first != UInt8(ascii: "#") else { return nil }
        next = valueStart
        guard let read = readValue(at: next, bareTerminators: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x27 }) else { return nil }
        // The value is the whole line: a key (`user: x`) or more words are no scalar of ours.
        var end = read.end
        end = skipSpaces(end)
        guard end >= buffer.count || buffer[end] == 0x0A || buffer[end] == 0x0D else { return nil }
        if !read.quoted, buffer[read.value.upperBound - 1] == UInt8(ascii: ":") { return nil }
        return candidate(name, value: read.value, matchStart: nameStart, matchEnd: read.end, form: read.quoted ? .quoted : .config)
    }

    func indent(from start: Int, to end: Int) -> Int {
        var i = start
        while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09 || buffer[i] == UInt8(ascii: "-")) { i += 1 }
        return i - start
    }
}
