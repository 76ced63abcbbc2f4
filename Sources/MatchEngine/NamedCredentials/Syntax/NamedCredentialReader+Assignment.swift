import Foundation

/// Assignments in the common languages and formats: `NAME=value` (env, properties, INI,
/// shell), `name = "value"` (Python, Ruby, TOML, HCL), `"name": "value"` (JSON, JS),
/// `name: value` (YAML, HTTP headers), `name := "value"` (Go), `'name' => 'value'` (PHP, Ruby),
/// `$obj->Name = 'value'` (PHP), `?api_key=value&` (URL query), `Password=value;` (connection
/// strings), `Authorization: Bearer value` (headers: the scheme word is skipped).
extension NamedCredentialReader {
    func readAssignment(_ name: CredentialName, nameStart: Int, nameEnd: Int) -> NamedCandidate? {
        var i = nameEnd
        var closers = 0
        while let b = byte(i), NamedCredentialReader.isQuote(b) || b == UInt8(ascii: "]"), closers < 2 { i += 1; closers += 1 }
        let beforeSeparator = i
        i = skipSpaces(i)
        let spaced = i > beforeSeparator
        let separator = i
        guard let s = byte(i) else { return nil }
        var afterSeparator: Int
        var colon = false
        switch s {
        case UInt8(ascii: "="):
            if byte(i + 1) == UInt8(ascii: "=") || byte(i + 1) == UInt8(ascii: "~") { return nil }
            afterSeparator = byte(i + 1) == UInt8(ascii: ">") ? i + 2 : i + 1
        case UInt8(ascii: ":"):
            if byte(i + 1) == UInt8(ascii: ":") || byte(i + 1) == UInt8(ascii: "/") { return nil }
            colon = byte(i + 1) != UInt8(ascii: "=")
            afterSeparator = colon ? i + 1 : i + 2
        case UInt8(ascii: "?"), UInt8(ascii: "|"):
            guard byte(i + 1) == UInt8(ascii: "=") || (byte(i + 1) == s && byte(i + 2) == UInt8(ascii: "=")) else { return nil }
            afterSeparator = byte(i + 1) == UInt8(ascii: "=") ? i + 2 : i + 3
        default: return nil
        }
        // `KEY= next` (env style, nothing after the `=`): an empty value.
        if !spaced && s == UInt8(ascii: "=") && (byte(afterSeparator) == 0x20 || byte(afterSeparator) == 0x09) { return nil }
        var v = skipSpaces(afterSeparator)
        guard let first = byte(v), first != 0x0A, first != 0x0D else { return nil }
        // Inside a string (`-H "apikey: v"`) the value is bare up to the string's end; a quote
        // there ends the string (`label:"Password:",next:"…"`), so there is no value.
        if closers == 0, let open = byte(nameStart - 1), NamedCredentialReader.isQuote(open), NamedCredentialReader.isQuote(first) { return nil }
        if name.kind == .authorization { v = skipScheme(v) }
        guard let read = readValue(at: v) else { return nil }
        var value = read.value
        if name.kind == .authorization {
            if read.quoted { value = stripScheme(value) }
            if isBasicPlaceholder(value) { return nil }
        }
        if read.quoted {
            if isConcatenated(after: read.end) { return nil }
            return candidate(name, value: value, matchStart: nameStart, matchEnd: read.end, form: .quoted)
        }
        guard bareValueEnds(at: read.end) else { return nil }
        // `name=name` (a keyword argument passed on): a variable.
        if buffer[value].elementsEqual(buffer[nameStart..<nameEnd]) { return nil }
        // `Password=v;` is a connection string's only with a server in it: without, the string
        // is no connection string (a sentence, a list of settings) and the value no password.
        if !spaced && byte(read.end) == UInt8(ascii: ";") && !hasServerKey(around: nameStart) { return nil }
        // Inside a string (`-H 'Api-Token: v'`, `-d "access_token=v"`), a header or a form
        // field: the value is all the slot holds.
        // A header's name has a dash or a capital (`Api-Token`, `Token`); `"passwd:gecos"` is
        // no header.
        let headerName = buffer[nameStart..<nameEnd].contains(UInt8(ascii: "-")) || CredentialNameScorer.isUpper(buffer[nameStart])
            || name.kind != .password
        let inString = closers == 0 && byte(nameStart - 1).map(NamedCredentialReader.isQuote) == true
            && byte(read.end).map(NamedCredentialReader.isQuote) == true && colon && headerName
        var form: ValueForm = !spaced && isParameter(nameStart) ? .slot
            : !spaced && isConfigLine(nameStart) || colon && isConfigLine(nameStart) || inString ? .config : .bare
        // An environment variable's line (`DB_PASSWORD=v`, `export SMTP_PASSWORD=v`: an upper-case
        // name, `=` with no space, the value bare): the variable holds the password and nothing
        // else, a slot. (`password=creds,` in a call's arguments is a keyword argument.)
        if form == .config && !spaced && !colon && name.kind == .password && isEnvironmentName(nameStart..<nameEnd) { form = .slot }
        // A `key = value` line among configuration lines only (`+ConfigFile`: an INI, properties
        // or env file's): no code is around to make the bare word a name, so it is the setting
        // as typed, and under a password's name the password (`password = quiet_harbor`).
        if form == .bare || form == .config, s == UInt8(ascii: "="), afterSeparator == separator + 1, isConfigLine(nameStart),
           let start = lineStart(nameStart), isConfigBlock(lineStart: start) {
            form = name.kind == .password ? .slot : .config
        }
        // In a password slot (`;Password=rose_garden;`) no variable can stand: words joined are the password.
        if form != .bare && !(form == .slot && name.kind == .password) && looksLikeCodeName(value) { return nil }
        return candidate(name, value: value, matchStart: nameStart, matchEnd: read.end, form: form)
    }

    static let serverKeys: [[UInt8]] = ["server=", "data source=", "host=", "hostname=", "address=", "addr=", "network address=",
                                        "datasource=", "dsn=", "endpoint=", "accountname="].map { Array($0.utf8) }

    /// Whether a connection string's server key is on the line within 256 bytes either side.
    func hasServerKey(around i: Int) -> Bool {
        var lo = i, hi = i
        while lo > 0 && buffer[lo - 1] != 0x0A && i - lo < 256 { lo -= 1 }
        while hi < buffer.count && buffer[hi] != 0x0A && hi - i < 256 { hi += 1 }
        for j in lo..<hi where j == 0 || !CredentialNameScorer.isAlnum(buffer[j - 1]) {
            for key in NamedCredentialReader.serverKeys where j + key.count <= hi {
                if (0..<key.count).allSatisfy({ buffer[j + $0] | 0x20 == key[$0] }) { return true }
            }
        }
        return false
    }

    /// Whether a string goes on past its closing quote (`"Zr5L" + rest`, `'a' . $b`, `"a" "b"`):
    /// the literal is a piece of the value, built at run time.
    func isConcatenated(after end: Int) -> Bool {
        let i = skipSpaces(end)
        guard let b = byte(i) else { return false }
        if b == UInt8(ascii: "+") { return byte(i + 1) != UInt8(ascii: "=") }
        if b == UInt8(ascii: ".") && i > end { return true }
        return false
    }

    /// Whether the name starts its line, as in an env, properties, INI or YAML file (after
    /// indentation, `export `, `set `, `- `, or a `#` that comments it out).
    func isConfigLine(_ nameStart: Int) -> Bool {
        guard let start = lineStart(nameStart) else { return false }
        var i = start
        while i < nameStart {
            let b = buffer[i]
            if b == 0x20 || b == 0x09 || b == UInt8(ascii: "#") || b == UInt8(ascii: "-") || b == UInt8(ascii: "$") { i += 1; continue }
            // `export NAME=`, `set NAME=`, `setx NAME`
            var w = i
            while w < nameStart && CredentialNameScorer.isLower(buffer[w] | 0x20) { w += 1 }
            let word = Array(buffer[i..<w]).map { $0 | 0x20 }
            if w > i && w < nameStart && buffer[w] == 0x20 && ["export", "set", "setx", "env", "arg", "declare", "readonly", "local"].contains(where: { Array($0.utf8) == word }) {
                i = w + 1
                continue
            }
            return false
        }
        return true
    }

    /// Upper-case letters, digits and `_`, a letter first (`REACT_APP_DB_PASSWORD`).
    func isEnvironmentName(_ r: Range<Int>) -> Bool {
        guard let first = byte(r.lowerBound), CredentialNameScorer.isUpper(first) else { return false }
        return buffer[r].allSatisfy { CredentialNameScorer.isUpper($0) || CredentialNameScorer.isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A parameter of a query string or a connection string: `?name=`, `&name=`, `;name=`.
    func isParameter(_ nameStart: Int) -> Bool {
        guard let b = byte(nameStart - 1) else { return false }
        return b == UInt8(ascii: "?") || b == UInt8(ascii: "&") || b == UInt8(ascii: ";")
            || (b == 0x20 && byte(nameStart - 2) == UInt8(ascii: ";"))
    }

    /// A name as code writes one (`getPassword`, `SecretStr`, `user_password`): a variable.
    func looksLikeCodeName(_ value: Range<Int>) -> Bool {
        var sawLower = false, camel = false, underscore = false, digit = false
        for i in value {
            let b = buffer[i]
            if CredentialNameScorer.isLower(b) { sawLower = true }
            else if CredentialNameScorer.isUpper(b) { if sawLower { camel = true } }
            else if b == UInt8(ascii: "_") { underscore = true }
            else if CredentialNameScorer.isDigit(b) { digit = true }
            else { return false }
        }
        return !digit && (camel || underscore) && CredentialNameScorer.isUpper(buffer[value.lowerBound]) == camel
            || !digit && underscore
    }

    /// After `Authorization:`, a scheme word (`Bearer`, `Basic`, `Token`, `Api-Token`) and its
    /// space are skipped: the credential is what follows.
    func skipScheme(_ v: Int) -> Int {
        var i = v
        while let b = byte(i), CredentialNameScorer.isUpper(b) || CredentialNameScorer.isLower(b) || b == UInt8(ascii: "-"), i - v < 24 { i += 1 }
        if i > v, byte(i) == 0x20, let next = byte(i + 1), next > 0x20 { return i + 1 }
        return v
    }

    /// After `Basic `: base64 of `user:password` whose password is a placeholder or prose
    /// (`user:password`, `Aladdin:open sesame`).
    func isBasicPlaceholder(_ value: Range<Int>) -> Bool {
        guard value.lowerBound >= 6, buffer[(value.lowerBound - 6)..<value.lowerBound].map({ $0 | 0x20 }) == Array("basic ".utf8),
              value.count <= 256, let data = Data(base64Encoded: Data(buffer[value])) else { return false }
        let decoded = [UInt8](data)
        guard let colon = decoded.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let password = decoded[(colon + 1)...]
        if password.isEmpty { return false }
        let name = CredentialName(kind: .password, strong: true, provider: nil)
        return Array(password).withUnsafeBufferPointer { CredentialValueScorer.confidence($0, name: name, form: .slot) == nil }
    }

    func stripScheme(_ value: Range<Int>) -> Range<Int> {
        let skipped = skipScheme(value.lowerBound)
        return skipped > value.lowerBound && skipped < value.upperBound ? skipped..<value.upperBound : value
    }
}
