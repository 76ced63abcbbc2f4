/// A credential compared with a literal: `if password == "v"`, `token === 'v'`,
/// `creds.Secret != "v"`, `form["password"] == "v"`. Code that accepts one fixed value holds
/// it (a login check, a backdoor, a test server's), so the literal is judged as an assignment's
/// would be: quoted in code.
extension NamedCredentialReader {
    func readComparison(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        var i = nameEnd
        var closers = 0
        while let b = byte(i), NamedCredentialReader.isQuote(b) || b == UInt8(ascii: "]"), closers < 2 { i += 1; closers += 1 }
        i = skipSpaces(i)
        guard let first = byte(i), first == UInt8(ascii: "=") || first == UInt8(ascii: "!"), byte(i + 1) == UInt8(ascii: "=") else { return nil }
        i += 2
        if byte(i) == UInt8(ascii: "=") { i += 1 }   // JavaScript's `===`, `!==`
        guard let read = readValue(at: skipSpaces(i)), read.quoted, !isConcatenated(after: read.end) else { return nil }
        return candidate(name, value: read.value, matchStart: nameStart, matchEnd: read.end, form: .quoted)
    }
}
