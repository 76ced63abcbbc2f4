/// Command lines: a credential flag and its value (`--token v`, `--api-key "v"`; `--token=v`
/// is an assignment), and curl's and wget's `-u user:pass` / `--user user:pass`, whose
/// password (or, with no password, the user part: an API key given as the user) is read.
/// Headers (`-H 'X-Api-Key: v'`) are assignments inside the quotes.
extension NamedCredentialReader {
    func readFlag(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        guard byte(nameEnd) == 0x20 else { return nil }
        let v = skipSpaces(nameEnd)
        guard let first = byte(v), first != UInt8(ascii: "-"), first > 0x20 else { return nil }
        guard let read = readValue(at: v) else { return nil }
        if !read.quoted && !bareValueEnds(at: read.end) { return nil }
        // Bare, a flag's value may be prose (`renamed to --db-password respectively`): held to
        // what a bare value in code is.
        return candidate(name, value: read.value, matchStart: nameStart, matchEnd: read.end, form: read.quoted ? .quoted : .bare)
    }

    static let userFlags: [[UInt8]] = ["-u", "--user", "--proxy-user", "--http-user", "--ftp-user"].map { Array($0.utf8) }
    private static let userName = CredentialName(kind: .password, strong: true, provider: nil)

    func readUserFlag(nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        guard nameEnd - nameStart <= 12, byte(nameStart) == UInt8(ascii: "-"), byte(nameEnd) == 0x20,
              NamedCredentialReader.userFlags.contains(where: { $0.elementsEqual(buffer[nameStart..<nameEnd]) }) else { return nil }
        // A flag of a command: the word before is not a name (`foo-u`).
        if let b = byte(nameStart - 1), b != 0x20 && b != 0x09 { return nil }
        let v = skipSpaces(nameEnd)
        guard let read = readValue(at: v, bareTerminators: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x27 || $0 == 0x60 || $0 == UInt8(ascii: ",") }) else { return nil }
        guard let colon = buffer[read.value].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var secret = colon + 1..<read.value.upperBound
        var end = read.end
        // `-u user:'pass'`: the password quoted on its own.
        if secret.isEmpty, !read.quoted, let q = byte(colon + 1), NamedCredentialReader.isQuote(q), let quoted = readValue(at: colon + 1) {
            secret = quoted.value
            end = quoted.end
        }
        if secret.isEmpty {
            // No password: the user part is the credential only when it is a key (`-u sk…:`).
            secret = read.value.lowerBound..<colon
            guard !secret.isEmpty, CredentialValueScorer.looksRandom(UnsafeBufferPointer(rebasing: buffer[secret])) else { return nil }
        }
        guard !secret.isEmpty else { return nil }
        // `-u admin:admin`: the user's name again, as documentation writes it.
        if secret.lowerBound == colon + 1, buffer[read.value.lowerBound..<colon].elementsEqual(buffer[secret]) { return nil }
        return candidate(NamedCredentialReader.userName, value: secret, matchStart: nameStart, matchEnd: end, form: .slot)
    }

    /// How many lines, and bytes, a continued command is read over.
    static let continuationLines = 32
    static let continuationReach = 8192
    static let commands: [[UInt8]] = ["curl", "wget"].map { Array($0.utf8) }

    /// `curl` or `wget` whose line ends in `\`: the lines it continues onto are its arguments
    /// (`-u user:pass`, `-H`, `-d`), read as its own, though no keyword of the rule is on them to
    /// bring the pass there. Each line once: a command inside one read is not read again.
    /// True when the token was such a command (it names no credential itself).
    func readContinuedCommand(nameStart: Int, nameEnd: Int, into found: inout [NamedCandidate]) -> Bool {
        guard nameEnd - nameStart == 4, nameStart >= progress.commandReadTo,
              NamedCredentialReader.commands.contains(where: { $0.elementsEqual(buffer[nameStart..<nameEnd]) }),
              byte(nameEnd) == 0x20 || byte(nameEnd) == 0x09 else { return false }
        // A command word, not part of one (`libcurl`, `--curl`, `x.curl`).
        if let b = byte(nameStart - 1), NamedCredentialReader.isNameByte(b) || b == UInt8(ascii: "/") { return false }
        let limit = min(buffer.count, nameEnd + NamedCredentialReader.continuationReach)
        var end = nameEnd
        while end < limit && buffer[end] != 0x0A { end += 1 }
        var lines = 0
        while end < limit && lines < NamedCredentialReader.continuationLines && continues(lineEnd: end) {
            end += 1
            while end < limit && buffer[end] != 0x0A { end += 1 }
            lines += 1
        }
        guard lines > 0 else { return false }
        progress.commandReadTo = end
        read(span: nameEnd..<end, into: &found)
        return true
    }

    /// Whether the line ending at `lineEnd` (its newline) ends in a shell's `\`.
    private func continues(lineEnd: Int) -> Bool {
        var i = lineEnd - 1
        while let b = byte(i), b == 0x0D || b == 0x20 || b == 0x09, lineEnd - i < 16 { i -= 1 }
        return byte(i) == UInt8(ascii: "\\")
    }
}
