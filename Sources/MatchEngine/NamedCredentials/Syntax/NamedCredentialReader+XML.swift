/// XML: an element named for a credential (`<password>value</password>`, `<apiKey>`), and a
/// key/value attribute pair (`<add key="ClearTextPassword" value="..."/>`, NuGet's and
/// .NET's appSettings; `name=` as well as `key=`): the value of a password's key is a
/// password slot.
extension NamedCredentialReader {
    func readXMLElement(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        var open = nameStart - 1
        // A namespace prefix: `<ns:password>`.
        if byte(open) == UInt8(ascii: ":") {
            open -= 1
            var steps = 0
            while let b = byte(open), NamedCredentialReader.isNameByte(b), steps < 32 { open -= 1; steps += 1 }
        }
        guard byte(open) == UInt8(ascii: "<"), byte(nameEnd) == UInt8(ascii: ">") else { return nil }
        let v = skipSpaces(nameEnd + 1)
        var j = v
        let limit = min(buffer.count, v + NamedCredentialReader.valueReach)
        while j < limit && buffer[j] != UInt8(ascii: "<") && buffer[j] != 0x0A { j += 1 }
        guard j < limit, buffer[j] == UInt8(ascii: "<"), byte(j + 1) == UInt8(ascii: "/") else { return nil }
        var e = j
        while e > v && (buffer[e - 1] == 0x20 || buffer[e - 1] == 0x09) { e -= 1 }
        guard e > v else { return nil }
        return candidate(name, value: v..<e, matchStart: open, matchEnd: j, form: .config)
    }

    func readXMLKeyValue(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        guard let q = byte(nameStart - 1), q == 0x22 || q == 0x27, byte(nameEnd) == q, byte(nameStart - 2) == UInt8(ascii: "=") else { return nil }
        // `key="…"` or `name="…"` before the name.
        var k = nameStart - 3
        while k >= 0 && buffer[k] == 0x20 { k -= 1 }
        let attr = k >= 2 ? Array(buffer[(k - 2)...k]).map { $0 | 0x20 } : []
        let attr4 = k >= 3 ? Array(buffer[(k - 3)...k]).map { $0 | 0x20 } : []
        guard attr == Array("key".utf8) || attr4 == Array("name".utf8) else { return nil }
        let i = skipSpaces(nameEnd + 1)
        guard i + 6 < buffer.count, Array(buffer[i..<(i + 5)]).map({ $0 | 0x20 }) == Array("value".utf8) else { return nil }
        let eq = skipSpaces(i + 5)
        guard byte(eq) == UInt8(ascii: "=") else { return nil }
        guard let read = readValue(at: skipSpaces(eq + 1)), read.quoted else { return nil }
        // `value=` holds the setting `key=` names and nothing else: under a password's name
        // (NuGet's `ClearTextPassword`, an appSettings `SmtpPassword`) it is a password slot.
        return candidate(name, value: read.value, matchStart: nameStart, matchEnd: read.end, form: name.kind == .password ? .slot : .config)
    }
}
