/// Configuration files written as `key = value` lines (INI, properties, `.conf`, `.cfg`, an
/// extension-less settings file): `password = quiet_harbor` there is the password as typed, not
/// a variable, since no code is around to give a bare word a meaning. A bare value in code
/// (`password = user_password`) stays an expression: the lines around decide, not the file's
/// name (the pass sees bytes only).
extension NamedCredentialReader {
    /// How many lines either side of a `key = value` line are read to decide, and how many
    /// bytes at most each way.
    static let configBlockLines = 8
    static let configBlockReach = 1024

    /// What one line of a configuration file is.
    enum ConfigFileLine { case blank, setting }

    /// Whether the line starting at `start` and the lines around it (up to `configBlockLines`
    /// either side, within `configBlockReach` bytes) are all configuration: blank, a comment
    /// (`#`, `;`, `//`, `!`), a section (`[name]`), or `key = value` / `key: value` with a bare
    /// value that holds no code (`(`, a quoted string, a list or map, a statement's `;`, a
    /// second ` = `). A quoted neighbour is code's or TOML's, where a bare word is a name.
    /// At least one other setting or section must be among them: a line alone
    /// (`password = word` and nothing else) is as much a line of code as of a configuration.
    func isConfigBlock(lineStart start: Int) -> Bool {
        let n = buffer.count
        // Lines after, this one included.
        var i = start
        var lines = 0
        var settings = 0
        while i < n && lines <= NamedCredentialReader.configBlockLines {
            var end = i
            while end < n && buffer[end] != 0x0A && end - start <= NamedCredentialReader.configBlockReach { end += 1 }
            if end - start > NamedCredentialReader.configBlockReach { break }   // cut off: not judged
            guard let line = configFileLine(i..<end) else { return false }
            if line == .setting { settings += 1 }
            lines += 1
            i = end + 1
        }
        guard lines > 0 else { return false }   // its own line longer than the reach
        // Lines before.
        var lineEnd = start - 1
        lines = 0
        while lineEnd > 0 && lines < NamedCredentialReader.configBlockLines {
            var begin = lineEnd
            while begin > 0 && buffer[begin - 1] != 0x0A && start - begin <= NamedCredentialReader.configBlockReach { begin -= 1 }
            if start - begin > NamedCredentialReader.configBlockReach { break }
            guard let line = configFileLine(begin..<lineEnd) else { return false }
            if line == .setting { settings += 1 }
            lines += 1
            lineEnd = begin - 1
        }
        return settings >= 2   // its own line and another
    }

    /// One line of `isConfigBlock` (without its newline); nil for code.
    func configFileLine(_ line: Range<Int>) -> ConfigFileLine? {
        var i = line.lowerBound
        var end = line.upperBound
        if end > i && buffer[end - 1] == 0x0D { end -= 1 }
        while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
        while end > i && (buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09) { end -= 1 }
        if i == end { return .blank }
        let first = buffer[i]
        if first == UInt8(ascii: "#") || first == UInt8(ascii: ";") || first == UInt8(ascii: "!")
            || first == UInt8(ascii: "/") && byte(i + 1) == UInt8(ascii: "/") { return .blank }
        if first == UInt8(ascii: "[") { return buffer[end - 1] == UInt8(ascii: "]") ? .setting : nil }
        // `export KEY=v` as an env file writes it.
        if end - i > 7, buffer[i..<(i + 7)].elementsEqual("export ".utf8) { i += 7 }
        let keyStart = i
        while i < end && NamedCredentialReader.isNameByte(buffer[i]) { i += 1 }
        guard i > keyStart else { return nil }
        i = skipSpaces(i)
        guard i < end, buffer[i] == UInt8(ascii: "=") || buffer[i] == UInt8(ascii: ":") else { return nil }
        if byte(i + 1) == UInt8(ascii: "=") || byte(i + 1) == UInt8(ascii: ":") { return nil }   // `==`, `::`
        let valueStart = skipSpaces(i + 1)
        guard valueStart < end else { return .setting }   // `key =`: empty
        let v = buffer[valueStart]
        if NamedCredentialReader.isQuote(v) || v == UInt8(ascii: "[") || v == UInt8(ascii: "{") { return nil }
        if buffer[end - 1] == UInt8(ascii: ";") || buffer[end - 1] == UInt8(ascii: "{") || buffer[end - 1] == UInt8(ascii: ",") { return nil }
        var j = valueStart
        while j < end {
            let b = buffer[j]
            if b == UInt8(ascii: "(") { return nil }
            if b == UInt8(ascii: "=") && j > valueStart && buffer[j - 1] == 0x20 && byte(j + 1) == 0x20 { return nil }
            j += 1
        }
        return .setting
    }
}
