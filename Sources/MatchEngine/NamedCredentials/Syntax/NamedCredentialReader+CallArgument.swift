/// A credential's name and a literal as a call's first two arguments: an environment lookup
/// with a fallback (`os.getenv("API_TOKEN", "v")`, `GetEnvOrDefault("api_token", "v")`), a
/// setter (`config.set("password", "v")`).
extension NamedCredentialReader {
    func readCallArgument(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        // Quotes of code (`"`, `'`), not Markdown's backticks.
        guard let q = byte(nameStart - 1), q == 0x22 || q == 0x27, byte(nameEnd) == q else { return nil }
        var open = nameStart - 2
        while let b = byte(open), b == 0x20, nameStart - open < 8 { open -= 1 }
        guard byte(open) == UInt8(ascii: "(") else { return nil }
        let comma = skipSpaces(nameEnd + 1)
        guard byte(comma) == UInt8(ascii: ",") else { return nil }
        guard let read = readValue(at: skipSpaces(comma + 1)), read.quoted, !isConcatenated(after: read.end) else { return nil }
        return candidate(name, value: read.value, matchStart: nameStart, matchEnd: read.end, form: .quoted)
    }
}
