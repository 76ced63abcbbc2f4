/// A URL's userinfo: `scheme://user:password@host`, the password read (any scheme; the
/// keywords bring the pass to database, broker and mail URLs). Query parameters
/// (`?api_key=v&`) are assignments.
extension NamedCredentialReader {
    private static let userinfoName = CredentialName(kind: .password, strong: true, provider: nil)

    func readURLUserinfo(schemeEnd: Int) -> NamedCandidate? {
        guard byte(schemeEnd) == UInt8(ascii: ":"), byte(schemeEnd + 1) == UInt8(ascii: "/"), byte(schemeEnd + 2) == UInt8(ascii: "/") else { return nil }
        let start = schemeEnd + 3
        var colon: Int?
        var i = start
        let limit = min(buffer.count, start + 2 * NamedCredentialReader.valueReach)
        while i < limit {
            let b = buffer[i]
            if b == UInt8(ascii: "@") { break }
            if b <= 0x20 || b == UInt8(ascii: "/") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#") { return nil }
            if b == UInt8(ascii: ":") && colon == nil { colon = i }
            i += 1
        }
        guard i < limit, let colon else { return nil }
        // A password holding `@` (unencoded, as people write it): the last `@` before the host.
        var at = i
        var j = i + 1
        // A `,` first is a host list (`user:pw@host1:5432,host2`): the userinfo ended at the first `@`.
        while j < limit, buffer[j] > 0x20, buffer[j] != UInt8(ascii: "/"), buffer[j] != UInt8(ascii: "\""), buffer[j] != UInt8(ascii: "'"),
              buffer[j] != UInt8(ascii: ",") {
            if buffer[j] == UInt8(ascii: "@") { at = j }
            j += 1
        }
        guard colon + 1 < at else { return nil }
        // `postgres://postgres:postgres@`: the user's name again, as documentation writes it.
        if buffer[start..<colon].elementsEqual(buffer[(colon + 1)..<at]) { return nil }
        return candidate(NamedCredentialReader.userinfoName, value: colon + 1..<at, matchStart: start, matchEnd: at, form: .slot)
    }
}
