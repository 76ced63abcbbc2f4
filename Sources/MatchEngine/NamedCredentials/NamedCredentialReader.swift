import ScanCore

/// One (name, value) pair the pass read: where the value (the secret) and the whole pair are,
/// what the name says and how the value was written.
struct NamedCandidate: Equatable {
    var name: CredentialName
    var value: Range<Int>
    var match: Range<Int>
    var form: ValueForm
    /// The value scorer's verdict (`CredentialValueScorer.confidence`).
    var confidence: Confidence
}

/// Reads (name, value) pairs out of a buffer near keyword hits: each name-like token in a span
/// is tried against the syntaxes (one file each: `+Assignment`, `+YAML`, `+XML`,
/// `+CommandLine`, `+URL`, `+CallArgument`, `+Gradle`, `+Comparison`, `+Kubernetes`), which
/// look at most a few hundred bytes either side of it (a Secret's manifest and a continued
/// command a few kilobytes, once), so the pass is linear in the span: a 10 MB line costs one
/// walk over its tokens, each bounded.
struct NamedCredentialReader {
    let buffer: UnsafeBufferPointer<UInt8>
    let names: CredentialNameScorer
    /// Names already scored (`CredentialNameMemo`): nil scores each one.
    let memo: CredentialNameMemo?
    /// What a syntax has read of the buffer already, so a window read around each of many
    /// names is read once (`+Kubernetes`).
    final class Progress {
        /// Where the manifest lines read from a `kind: Secret` end.
        var manifestReadTo = 0
        /// Where the lines a continued `curl` command was read to end.
        var commandReadTo = 0
    }
    let progress = Progress()
    /// How far back a syntax looks for the start of a line (`NAME=value` at a line's start is
    /// an env file's, not code's): bounded, so a long line is not walked back per token.
    static let lineLookBehind = 256
    /// How far a value may run: `CredentialValueScorer.maximumLength` and a little for quotes.
    static let valueReach = CredentialValueScorer.maximumLength + 2

    init(buffer: UnsafeBufferPointer<UInt8>, names: CredentialNameScorer, memo: CredentialNameMemo? = nil) {
        self.buffer = buffer
        self.names = names
        self.memo = memo
    }

    /// Every pair whose name starts in `span`, in order of position.
    /// Appends to `found` rather than calling back: a closure reaching the matcher's (which
    /// holds a `Rule`) made every token retain and release the rule's fields, 45% of the pass's
    /// CPU on Python's site-packages.
    func read(span: Range<Int>, into found: inout [NamedCandidate]) {
        let n = buffer.count
        var i = max(0, span.lowerBound)
        // A span may start inside a name: back up to its start (names are at most 80 bytes).
        var back = 0
        while i > 0 && back < CredentialNameScorer.maximumLength && NamedCredentialReader.isNameByte(buffer[i - 1]) { i -= 1; back += 1 }
        let end = min(span.upperBound, n)
        let stemStarts = NamedCredentialReader.stemStarts
        while i < end {
            guard NamedCredentialReader.isNameByte(buffer[i]) else { i += 1; continue }
            var j = i
            // Whether a byte pair of the token starts a stem, found on the way: most tokens
            // (`self`, `return`, `value`) have none, and then no syntax but a URL's scheme, a
            // `-u` flag or a word of `wordsReadWithoutStem` (Kubernetes' `Secret`, a continued
            // `curl`) can read a pair at them (`readPair`), so they cost no second walk and no call.
            var stemPair = false
            while j < n && NamedCredentialReader.isNameByte(buffer[j]) && j - i <= CredentialNameScorer.maximumLength {
                if j > i && stemStarts[Int(buffer[j - 1] | 0x20) << 8 | Int(buffer[j] | 0x20)] { stemPair = true }
                j += 1
            }
            if j - i <= CredentialNameScorer.maximumLength {
                if stemPair || byte(j) == UInt8(ascii: ":") || buffer[i] == UInt8(ascii: "-")
                    || NamedCredentialReader.wordsReadWithoutStem[Int(buffer[i] | 0x20)] & (1 << UInt64(j - i)) != 0 {
                    readPair(nameStart: i, nameEnd: j, stemPair: stemPair, into: &found)
                }
            } else {
                while j < n && NamedCredentialReader.isNameByte(buffer[j]) { j += 1 }
            }
            i = j
        }
    }

    /// `stemPair`: whether a byte pair of the token starts a stem (`stemStarts`); without
    /// one it holds no stem.
    private func readPair(nameStart: Int, nameEnd: Int, stemPair: Bool, into found: inout [NamedCandidate]) {
        if let c = readURLUserinfo(schemeEnd: nameEnd) { found.append(c); return }
        if let c = readUserFlag(nameStart: nameStart, nameEnd: nameEnd) { found.append(c); return }
        if readKubernetesSecret(nameStart: nameStart, nameEnd: nameEnd, into: &found) != nil { return }
        if readContinuedCommand(nameStart: nameStart, nameEnd: nameEnd, into: &found) { return }
        var start = nameStart
        var dashes = 0
        while start < nameEnd && buffer[start] == UInt8(ascii: "-") { start += 1; dashes += 1 }
        guard stemPair, NamedCredentialReader.mayHoldStem(buffer, start..<nameEnd) else { return }
        // A segment of a path, a type or an ARN (`AWS::IAM::AccessKey`, `arn:…:secret:x`,
        // `/v1/token`, `user@token`): no variable's name.
        if dashes == 0, let before = byte(start - 1), before == UInt8(ascii: ":") || before == UInt8(ascii: "/") || before == UInt8(ascii: "@"),
           !isXMLNamespace(colon: start - 1) { return }
        let nameBytes = UnsafeBufferPointer(rebasing: buffer[start..<nameEnd])
        let scored = if let memo { memo.score(nameBytes, by: names) } else { names.score(nameBytes) }
        guard let name = scored else { return }
        let pair = readXMLElement(name, nameStart: start, nameEnd: nameEnd)
            ?? readXMLKeyValue(name, nameStart: start, nameEnd: nameEnd)
            ?? readGradleField(name, nameStart: start, nameEnd: nameEnd)
            ?? readCallArgument(name, nameStart: start, nameEnd: nameEnd)
            ?? (dashes == 2 ? readFlag(name, nameStart: nameStart, nameEnd: nameEnd) : nil)
            ?? readAssignment(name, nameStart: start, nameEnd: nameEnd)
            ?? readComparison(name, nameStart: start, nameEnd: nameEnd)
            ?? readYAMLNextLine(name, nameStart: start, nameEnd: nameEnd)
        if let pair { found.append(pair) }
    }

    /// Whether the `:` at `colon` ends an XML namespace prefix (`<cfg:apiKey>`).
    func isXMLNamespace(colon: Int) -> Bool {
        guard byte(colon) == UInt8(ascii: ":") else { return false }
        var i = colon - 1
        while let b = byte(i), NamedCredentialReader.isNameByte(b), colon - i < 32 { i -= 1 }
        return i < colon - 1 && (byte(i) == UInt8(ascii: "<") || byte(i) == UInt8(ascii: "/") && byte(i - 1) == UInt8(ascii: "<"))
    }

    // MARK: - Shared pieces for the syntaxes

    /// Reads a value starting at `at` (after the separator and spaces): quoted (one line,
    /// backslash escapes skipped) or bare up to a terminator. Nil when there is none.
    func readValue(at start: Int, bareTerminators: (UInt8) -> Bool = NamedCredentialReader.isBareTerminator)
        -> (value: Range<Int>, end: Int, quoted: Bool)? {
        let n = buffer.count
        var i = start
        // String prefixes: r"...", b'...', u"...", f"...", @"..." (C#), L"..." (C).
        if i + 1 < n, NamedCredentialReader.isQuote(buffer[i + 1]),
           [UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "u"), UInt8(ascii: "f"), UInt8(ascii: "@"), UInt8(ascii: "L")].contains(buffer[i]) { i += 1 }
        guard i < n else { return nil }
        let q = buffer[i]
        if NamedCredentialReader.isQuote(q) {
            var j = i + 1
            let limit = min(n, j + NamedCredentialReader.valueReach)
            while j < limit && buffer[j] != q && buffer[j] != 0x0A {
                if buffer[j] == UInt8(ascii: "\\") && q != UInt8(ascii: "'") { j += 1 }
                j += 1
            }
            guard j < limit, buffer[j] == q, j > i + 1 else { return nil }
            return (i + 1..<j, j + 1, true)
        }
        var j = i
        let limit = min(n, j + NamedCredentialReader.valueReach)
        while j < limit && !bareTerminators(buffer[j]) { j += 1 }
        guard j > i, j < limit || j == n else { return nil }
        return (i..<j, j, false)
    }

    /// Whether a bare value ends where a configuration value ends (the line's end, a comment,
    /// a terminator, a closing quote of the argument it sits in) and not where code goes on
    /// (`password = get_password()`, `token = cfg.token + suffix`).
    func bareValueEnds(at end: Int) -> Bool {
        let n = buffer.count
        if end >= n { return true }
        let b = buffer[end]
        if b == UInt8(ascii: "(") || b == UInt8(ascii: "[") || b == UInt8(ascii: ".") { return false }
        var i = end
        while i < n && (buffer[i] == 0x20 || buffer[i] == 0x09) && i - end < 64 { i += 1 }
        if i >= n { return true }
        switch buffer[i] {
        case 0x0A, 0x0D, UInt8(ascii: "#"), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"),
             UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "\\"):
            return true
        case UInt8(ascii: "/"): return i + 1 < n && buffer[i + 1] == UInt8(ascii: "/")
        default: return i > end && buffer[i] == UInt8(ascii: "-")   // the next flag of a command line
        }
    }

    /// Spaces and tabs from `i`, at most 16.
    func skipSpaces(_ i: Int) -> Int {
        var j = i
        while j < buffer.count && (buffer[j] == 0x20 || buffer[j] == 0x09) && j - i < 16 { j += 1 }
        return j
    }

    /// The start of `i`'s line, or nil when it is further back than `lineLookBehind`.
    func lineStart(_ i: Int) -> Int? {
        var j = i
        while j > 0 && buffer[j - 1] != 0x0A {
            j -= 1
            if i - j > NamedCredentialReader.lineLookBehind { return nil }
        }
        return j
    }

    func byte(_ i: Int) -> UInt8? { i >= 0 && i < buffer.count ? buffer[i] : nil }

    func candidate(_ name: CredentialName, value: Range<Int>, matchStart: Int, matchEnd: Int, form: ValueForm) -> NamedCandidate? {
        let v = UnsafeBufferPointer(rebasing: buffer[value])
        guard let confidence = CredentialValueScorer.confidence(v, name: name, form: form) else { return nil }
        return NamedCandidate(name: name, value: value, match: matchStart..<max(matchEnd, value.upperBound), form: form, confidence: confidence)
    }

    // MARK: - Bytes

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2E
    }

    static func isQuote(_ b: UInt8) -> Bool { b == 0x22 || b == 0x27 || b == 0x60 }

    static func isBareTerminator(_ b: UInt8) -> Bool {
        b <= 0x20 || b == 0x22 || b == 0x27 || b == 0x60 || b == UInt8(ascii: ";") || b == UInt8(ascii: "&") || b == UInt8(ascii: ",")
            || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")
            || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: "\\") || b == 0x7F
    }

    /// Stems of the credential vocabulary, lowercase: a name holds one of them or is none.
    static let stems: [[UInt8]] = ["pass", "pwd", "pw", "secr", "toke", "key", "auth", "cred", "bearer"].map { Array($0.utf8) }

    /// Words that name no credential but a syntax still reads a pair at (Kubernetes' `kind:
    /// Secret`, a continued command of `commands`), as a cheap first look for the token loop:
    /// by lowercase first byte, a bit for each such word's length. Derived from the readers'
    /// own lists, so a word added there is not silently skipped here.
    static let wordsReadWithoutStem: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 256)
        for word in commands + [secretKind] where word.count < 64 {
            table[Int(word[0] | 0x20)] |= 1 << UInt64(word.count)
        }
        return table
    }()

    /// Whether a stem starts with the two bytes `a << 8 | b` (lowercase, as `| 0x20` makes them).
    static let stemStarts: [Bool] = {
        var table = [Bool](repeating: false, count: 1 << 16)
        for stem in stems { table[Int(stem[0]) << 8 | Int(stem[1])] = true }
        return table
    }()

    /// Whether the token holds a stem (`stems`): a cheap test before the name is split into
    /// words. Most tokens near a keyword (`self`, `return`, `value`) hold none; splitting each
    /// cost the pass a third of a folder scan's CPU (Python 3.11 with site-packages).
    /// Each byte costs one look-up in `stemStarts`, and only a byte pair that starts a stem is
    /// compared with the stems: with seven comparisons a byte and a walk of `stems` at each
    /// `p s t k a c b`, run on every token of every span, this was 1.0% of a folder scan's CPU
    /// on the Python 3.11 tree with site-packages (perf); `read` now calls it only for a token
    /// with such a pair.
    static func mayHoldStem(_ buffer: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        let starts = stemStarts
        var i = r.lowerBound
        while i + 1 < r.upperBound {
            let a = buffer[i] | 0x20
            if starts[Int(a) << 8 | Int(buffer[i + 1] | 0x20)] {
                for stem in stems where stem[0] == a && i + stem.count <= r.upperBound {
                    var k = 1
                    while k < stem.count && buffer[i + k] | 0x20 == stem[k] { k += 1 }
                    if k == stem.count { return true }
                }
            }
            i += 1
        }
        return false
    }
}
