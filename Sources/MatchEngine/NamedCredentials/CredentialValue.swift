import Foundation
import ScanCore

/// How a value was written: in quotes, or bare up to a terminator. A bare value in code is
/// usually an expression (`password = user_password`), so bare values are held to more.
enum ValueForm: Equatable {
    case quoted
    case bare
    /// A configuration line's whole value (env, properties, INI, YAML, an XML element, a
    /// header inside a command's string): no code around it, but a type annotation
    /// (`password: bytes`) reads the same.
    case config
    /// In a slot that holds nothing but a credential: a connection string's `Password=`, a
    /// URI's userinfo, `curl -u user:pass`, a query parameter, Kubernetes Secret data.
    case slot
}

/// Scores a value found under a credential name: what it is not (a reference, a path, a URL
/// without credentials, a boolean, a number, a date, a version, an identifier, a placeholder),
/// and then how random it looks for its alphabet. Pure.
enum CredentialValueScorer: ASCIIByteClasses {
    /// A value longer than this is a blob or a document, not a credential this pass reads.
    static let maximumLength = 256
    /// Shortest weak password reported: `hunter2` is 7, `secret1` 7; 5 and under are mostly
    /// single words and abbreviations (`admin`, `root`, `pw`).
    static let minimumWeakLength = 6
    /// Shortest value that can look random: in a slot that holds nothing else (a header, a
    /// connection string, an env file's value), 10 (`Sk94HG7f6KB`, an 11-character API token);
    /// in code, 16, the generic rules' minimum, since code is full of short mixed literals
    /// (labelled arguments of tests, ids, hashes cut short).
    static let minimumRandomLength = 10
    static let minimumRandomLengthInCode = 16

    /// The confidence of a finding for `value` under `name`, nil for none.
    static func confidence(_ value: UnsafeBufferPointer<UInt8>, name: CredentialName, form: ValueForm) -> Confidence? {
        let n = value.count
        if n < 4 || n > maximumLength { return nil }
        // Text that is not ASCII (`«marked»` examples, typographic quotes, prose) is no
        // credential this pass reports: the generic rules' alphabet is ASCII too.
        if value.contains(where: { $0 >= 0x80 || $0 < 0x20 }) { return nil }
        // A password slot (a connection string's `Password=`, a URI's userinfo, `curl -u`) holds
        // nothing but a password: there `)` is a character, not a call, and a value is none only
        // when it is a documented placeholder (`isPlaceholderPhrase`), not for holding a test
        // or credential word (`TestFeedPassword` is some test feed's password).
        let passwordSlot = form == .slot && name.kind == .password
        if isReference(value, allowsParentheses: passwordSlot) || isNonSecretShape(value) || isEncodedJSON(value) { return nil }
        if Placeholder.isPlaceholder(UnsafeRawBufferPointer(value)) || isPlaceholderWord(value) { return nil }
        if passwordSlot {
            if isPlaceholderPhrase(value) || isSelfDescription(value) || isElidedOrRepeated(value) { return nil }
        } else if isElidedOrSample(value, password: name.kind == .password) || containsCredentialWord(value) || isCamelCaseTypeName(value) {
            return nil
        }
        let inCode = form == .quoted || form == .bare
        let random = looksRandom(value) && (!inCode || n >= minimumRandomLengthInCode && !isIdShaped(value))
        if form == .bare && !random && looksLikeIdentifier(value) { return nil }
        // A weak name (`user_auth`, `somevendor_key`) in code names too many things that are
        // not secrets (`reserved_key`, `result_key`): read in configuration only.
        // An unsecured JWT (`alg: none`, no signature) is accepted only by a server that takes
        // unsigned tokens: under a credential's name it is reported, at low (the jwt rules
        // leave it, as it grants nothing where verification is on).
        if random && isUnsecuredJWT(value) { return .low }
        if random { return name.strong ? .medium : inCode ? nil : .low }
        // Not random: only a password slot holds a weak but real credential.
        // A bare word in code (`password = goodspec;`, a string's `PASSWORD=x`) is an
        // expression as often as a password: only a quoted or slotted one is reported.
        guard name.kind == .password, form != .bare, n >= minimumWeakLength || form == .slot else { return nil }
        if hasSpace(value) { return nil }
        // A weak password people choose mixes letters with digits or symbols (`hunter2`,
        // `P@ssw0rd$1`); a word alone (`python`, `sekrit`, `IAmSensitive`) is as often a test's
        // stand-in or a type name, except where the syntax holds nothing but a password.
        if form != .slot || !name.strong, !isMixed(value) { return nil }
        return .low
    }

    // MARK: - What a value is not

    /// `${VAR}`, `$VAR`, `%s`, `%(name)s`, `{{ var }}`, `<your-key>`, `@VAR@`, `#{...}`,
    /// function calls and the like: the value is elsewhere.
    static func isReference(_ v: UnsafeBufferPointer<UInt8>, allowsParentheses: Bool = false) -> Bool {
        let first = v[0], last = v[v.count - 1]
        // A call (`getenv(...)`, `QSF7UUM)RX`): code, not a literal someone typed.
        if !allowsParentheses && (v.contains(UInt8(ascii: "(")) || v.contains(UInt8(ascii: ")"))) { return true }
        let lowered = v.prefix(16).map(lower)
        for p in ["process.env", "os.environ", "system.getenv", "env.", "env[", "&lt;"] where startsWith(lowered, p) { return true }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "<") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return true }
        // A numeric literal (`0x1f…`), an index or a call (`a.b[-1]`, `Shards[-1].ShardId`).
        if v.count > 2 && first == UInt8(ascii: "0") && v[1] | 0x20 == UInt8(ascii: "x") { return true }
        if v.contains(UInt8(ascii: "[")) || v.contains(UInt8(ascii: "]")) { return true }
        if first == UInt8(ascii: "%") && last == UInt8(ascii: "%") { return true }
        if first == UInt8(ascii: "@") && last == UInt8(ascii: "@") { return true }
        if first == UInt8(ascii: "*") && v.allSatisfy({ $0 == UInt8(ascii: "*") }) { return true }
        for i in 0..<(v.count - 1) {
            let a = v[i], b = v[i + 1]
            if a == UInt8(ascii: "$") && (b == UInt8(ascii: "{") || b == UInt8(ascii: "(")) { return true }
            // Swift's interpolation (`user:\(password)@`), a reference even where `(` is a character.
            if a == UInt8(ascii: "\\") && b == UInt8(ascii: "(") { return true }
            if a == UInt8(ascii: "{") && (b == UInt8(ascii: "{") || b == UInt8(ascii: "}")) { return true }
            if a == UInt8(ascii: "#") && b == UInt8(ascii: "{") { return true }
            if a == UInt8(ascii: "%") && (b == UInt8(ascii: "s") || b == UInt8(ascii: "(") || b == UInt8(ascii: "d")) && (i + 2 == v.count || !isAlnum(v[i + 2])) { return true }
        }
        return false
    }

    /// Booleans, null, numbers, dates, versions, paths, URLs without userinfo, file names,
    /// member access (`settings.API_TOKEN`), CONSTANT_NAMES.
    static func isNonSecretShape(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = v.count
        var letters = 0, digits = 0, upper = 0, lower = 0, dots = 0, underscores = 0, others = 0
        for b in v {
            if isDigit(b) { digits += 1 } else if isUpper(b) { upper += 1; letters += 1 } else if isLower(b) { lower += 1; letters += 1 }
            else if b == UInt8(ascii: ".") { dots += 1 } else if b == UInt8(ascii: "_") { underscores += 1 } else { others += 1 }
        }
        if letters == 0 && others == 0 { return true }                 // numbers, versions, dotted digits
        if digits + dots + others == n || digits == n { return true }
        if isDate(v) { return true }
        if letters <= 5 && lowercaseWord(v, in: ["true", "false", "null", "none", "nil", "yes", "no", "on", "off", "undefined"]) { return true }
        let first = v[0]
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "~") || first == UInt8(ascii: ".") && n > 1 && (v[1] == UInt8(ascii: "/") || v[1] == UInt8(ascii: ".")) { return true }
        if n > 2 && isLetter(first) && v[1] == UInt8(ascii: ":") && v[2] == UInt8(ascii: "\\") { return true }
        if let colon = find(v, "://") {
            // A URL: a secret only with userinfo, which the URL syntax reads itself.
            _ = colon
            return true
        }
        // CONSTANT_NAME or member access (`config.password`, `os.environ`).
        if others == 0 && digits == 0 && lower == 0 && underscores > 0 { return true }
        if others == 0 && dots > 0 && isDotted(v) { return true }
        if hasFileExtension(v) { return true }
        return false
    }

    /// Base64 of a JSON object (`eyJ` is `{"`): a document, such as a pagination token's state
    /// (`--starting-token eyJOZXh0…`) or a JWT's header, not a credential by itself. (A signed
    /// JWT is its rule's; a Kubernetes Secret's Docker config is decoded and its fields judged.)
    /// Only when it decodes to a JSON object: random base64 that happens to start `eyJ` (a
    /// token under `access_token` whose bytes begin `{"`), or an unsecured JWT (`alg: none`,
    /// dotted, no signature) under a credential's name, is a value like any other.
    static func isEncodedJSON(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        guard v.count > 3 && v[0] == UInt8(ascii: "e") && v[1] == UInt8(ascii: "y") && v[2] == UInt8(ascii: "J") else { return false }
        // Base64url to base64, padded: only values that start `eyJ` get here (rare).
        var text = [UInt8](v).map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(text)),
              let object = try? JSONSerialization.jsonObject(with: data) else { return false }
        return object is [String: Any]
    }

    /// `eyJ…` header `.` payload `.` with nothing after the second dot: a JWT without signature.
    static func isUnsecuredJWT(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        guard v.count > 8, v[0] == UInt8(ascii: "e"), v[1] == UInt8(ascii: "y"), v[2] == UInt8(ascii: "J"),
              v[v.count - 1] == UInt8(ascii: ".") else { return false }
        return v.filter { $0 == UInt8(ascii: ".") }.count == 2
    }

    /// CamelCase words, as a type is named (`SecretStr`, `AWSSecretKey`, `pyOpenSSLContext`):
    /// an optional lowercase word or a capital with up to 3 digits, then two or more words of a
    /// capital, two or more lowercase letters and up to 3 digits. In code or configuration that
    /// is a type (`password: SecretStr`); in a password slot it is the password.
    static func isCamelCaseTypeName(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = v.count
        /// Whether `v[from...]` is two or more words of a capital, lowercase letters and digits.
        func words(from start: Int) -> Bool {
            var i = start, count = 0
            while i < n {
                guard isUpper(v[i]) else { return false }
                var j = i + 1
                while j < n && isLower(v[j]) { j += 1 }
                guard j - i - 1 >= 2 else { return false }
                let digits = j
                while j < n && isDigit(v[j]) && j - digits < 3 { j += 1 }
                count += 1
                i = j
            }
            return count >= 2
        }
        if words(from: 0) { return true }
        var lowerRun = 0
        while lowerRun < n && isLower(v[lowerRun]) { lowerRun += 1 }
        if lowerRun >= 2 && words(from: lowerRun) { return true }
        guard n > 0, isUpper(v[0]) else { return false }
        var i = 1
        while i < n && isDigit(v[i]) && i <= 3 { i += 1 }
        return words(from: i)
    }

    /// An identifier as code writes one: snake_case, camelCase, CamelCase words, with at most
    /// a short number at the end. Bare in code, that is a variable.
    static func looksLikeIdentifier(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        var trailingDigits = 0
        for b in v.reversed() { if isDigit(b) { trailingDigits += 1 } else { break } }
        let body = UnsafeBufferPointer(rebasing: v[..<(v.count - trailingDigits)])
        guard !body.isEmpty, isLetter(body[0]) || body[0] == UInt8(ascii: "_"), trailingDigits <= 3 else { return false }
        return body.allSatisfy { isLetter($0) || $0 == UInt8(ascii: "_") }
    }

    /// How many of lower case, upper case, digits and other printable characters `v` holds.
    static func characterClasses(_ v: UnsafeBufferPointer<UInt8>) -> Int {
        var lowerSeen = false, upperSeen = false, digitSeen = false, otherSeen = false
        for b in v {
            if isLower(b) { lowerSeen = true } else if isUpper(b) { upperSeen = true } else if isDigit(b) { digitSeen = true } else { otherSeen = true }
        }
        return [lowerSeen, upperSeen, digitSeen, otherSeen].filter { $0 }.count
    }

    /// Letters with digits or symbols, 7 characters or more; words joined by `-`, `_` or `.`
    /// (`to-be-stolen`, `alternate-value`) are a phrase, not a mix.
    static func isMixed(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        v.count >= 7 && v.contains(where: isLetter)
            && v.contains { !isLetter($0) && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: ".") }
    }

    /// Shapes of ids rather than keys where code writes them: hex under 32 digits (a hash or
    /// id cut short), lower-case words and numbers joined by `_`, `-` or `.` (`python_3_11`),
    /// each part all letters or all digits. (A UUID under a strong name is an API key as
    /// often as not, and stays.)
    static func isIdShaped(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        if v.count < 32 && Entropy.isHexDigits(UnsafeRawBufferPointer(v)) { return true }
        var separators = 0, letters = false, digits = false
        for b in v {
            if b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") {
                if letters && digits { return false }
                separators += 1; letters = false; digits = false
            } else if isLower(b) { letters = true } else if isDigit(b) { digits = true } else { return false }
        }
        return separators > 0 && !(letters && digits)
    }

    // MARK: - Randomness

    /// Long enough, mixed enough and with the entropy of a random string of its alphabet: the
    /// gate is `min(3.5, log2(n) - 0.6)` bits a byte (hex: `min(3.0, log2(n) - 1.3)`), the
    /// generic rules' gate, so a 16-character random value of letters and digits passes 99
    /// times in 100, and of hex digits 98.
    static func looksRandom(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = v.count
        if n < minimumRandomLength || hasSpace(v) { return false }
        var letters = 0, digits = 0, upper = 0, lower = 0
        for b in v {
            if isDigit(b) { digits += 1 } else if isUpper(b) { upper += 1; letters += 1 } else if isLower(b) { lower += 1; letters += 1 }
        }
        // A random string of letters and digits holds both in all but a few per thousand at 16.
        if letters == 0 { return false }
        if digits == 0 && (upper == 0 || lower == 0 || n < 20) { return false }
        let raw = UnsafeRawBufferPointer(v)
        let hex = Entropy.isHexDigits(raw)
        // Hex has 4 bits a character, not base62's 5.95: at the same offset a random value of
        // 16 hex digits passed 84 times in 100 (`Token: <16 hex>` headers were missed), so its
        // gate sits 0.7 lower, near the 1% quantile of random hex as base62's is of base62
        // (simulated: 16 digits pass 98.8%, 20 97.1%, 24 and more 99.5%).
        let gate = hex ? min(3.0, log2(Double(n)) - 1.3) : min(3.5, log2(Double(n)) - 0.6)
        if Entropy.shannon(raw) <= gate { return false }
        return !looksLikeWords(v)
    }

    /// CamelCase or snake_case words with no digit inside (`VeryLongClassNameForAToken`): not
    /// random, whatever its entropy.
    static func looksLikeWords(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        // Words with a version in them (`ServerlessV2PlatformVersions`): runs of three or more
        // lower-case letters over most of the value, two digits at most.
        var covered = 0, digits = 0, current = 0
        for b in v {
            if isDigit(b) { digits += 1 }
            if isLower(b) { current += 1 } else { if current >= 3 { covered += current }; current = 0 }
        }
        if current >= 3 { covered += current }
        if digits <= 2 && covered * 10 >= v.count * 7 { return true }
        // A long run of words and punctuation (a stack trace, a list of symbols).
        if digits * 10 <= v.count && covered * 10 >= v.count * 6 { return true }
        var digitsInside = false
        for b in v.dropLast(3) where isDigit(b) { digitsInside = true; break }
        if digitsInside { return false }
        var runs = 0, run = 0, longest = 0
        for b in v {
            if isLower(b) { run += 1; longest = max(longest, run) } else { if run >= 3 { runs += 1 }; run = 0 }
        }
        if run >= 3 { runs += 1 }
        return runs >= 2 && longest >= 4 && v.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    // MARK: - Placeholders

    /// Elided (`sk-abc...`, `pypi-AgEI…`), a block said twice or more (`ab12ab12`), a counting
    /// run (`_1234`), a keyboard run (`asdasd`, `qwerty`) or a test word (`ForTestingOnly`):
    /// documentation's values, not credentials. A random value holds none of these but about
    /// once in 10^6 (a given 4-character run in base62, at any of ~30 places).
    ///
    /// `password`: the value sits under a password's name. There a keyboard run mixed with
    /// three or more of lower case, upper case, digits and symbols (`` `123QWERasdf ``) is what
    /// a password policy (three classes of four, as Windows' and most directories' ask) made
    /// someone type, a weak password and no stand-in: reported at low, as any weak password.
    static func isElidedOrSample(_ v: UnsafeBufferPointer<UInt8>, password: Bool = false) -> Bool {
        if isElidedOrRepeated(v) { return true }
        let lowered = v.map(lower)
        for run in ["1234", "testing", "testonly", "fortest", "mock", "geheim", "::"] where find(lowered, run) { return true }
        if !(password && characterClasses(v) >= 3) {
            for run in ["asdasd", "asdf", "qwert"] where find(lowered, run) { return true }
        }
        for word in ["test", "dummy", "fake", "sample", "your"] where startsWith(lowered, word) { return true }
        return false
    }

    /// Elided (`...`, `…`) or a block said twice or more over the whole value.
    static func isElidedOrRepeated(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        if find(v, "...") != nil { return true }
        if v.contains(0xE2) { return true }   // an ellipsis (U+2026) or other typographic character: prose
        let n = v.count
        for block in 1...max(1, n / 2) where n % block == 0 && n / block >= 2 {
            var repeated = true
            for i in block..<n where v[i] != v[i - block] { repeated = false; break }
            if repeated { return true }
        }
        return false
    }

    /// Values documentation and templates write in a password's place.
    static let placeholderWords: Set<[UInt8]> = Set([
        "password", "passwd", "pass", "pwd", "secret", "secrets", "changeme", "change_me", "changeit", "test", "testing", "tests",
        "example", "sample", "dummy", "fake", "foo", "foobar", "bar", "baz", "qux", "xxx", "todo", "tbd", "fixme", "redacted",
        "hidden", "masked", "empty", "none", "null", "nil", "string", "str", "value", "token", "apikey", "api_key", "key",
        "mypassword", "yourpassword", "your_password", "my_password", "password1", "password123", "secret123", "admin",
        "administrator", "root", "user", "username", "guest", "default", "required", "optional", "unknown", "invalid",
        "notasecret", "not_a_secret", "placeholder", "p@ssw0rd", "passw0rd", "secret_key", "secretkey", "access_token", "your_token", "yourtoken", "mytoken",
    ].map { Array($0.utf8) })

    static func isPlaceholderWord(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        if v.count > 20 { return false }
        let lowered = v.map(lower)
        if placeholderWords.contains(lowered) { return true }
        // `your-api-key-here`, `<insert>`, `xxxxxxxx`, `****`, `....`.
        if lowered.allSatisfy({ $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "#") }) { return true }
        return startsWith(lowered, "your") || startsWith(lowered, "enter") || startsWith(lowered, "insert")
    }

    /// A credential word inside a weak value (`smtp_password`, `thisismypassword`,
    /// `DB_PASSWORD`): a name or a stand-in, not a password.
    static func containsCredentialWord(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowered = v.map(lower)
        for w in ["password", "passwd", "secret", "token", "apikey", "api_key", "credential", "-pass", "_pass", "privatekey",
                  "accesskey", "secretkey", "_key", "key_", "keytype"] where find(lowered, w) { return true }
        return false
    }

    // MARK: - Bytes

    static func isDate(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        v.count >= 10 && (0..<4).allSatisfy { isDigit(v[$0]) } && v[4] == UInt8(ascii: "-") && isDigit(v[5]) && isDigit(v[6]) && v[7] == UInt8(ascii: "-")
    }

    static func isDotted(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every dot-separated part an identifier (a letter or `_` first).
        var atStart = true
        for b in v {
            if b == UInt8(ascii: ".") { if atStart { return false }; atStart = true; continue }
            if atStart && !(isLetter(b) || b == UInt8(ascii: "_")) { return false }
            atStart = false
        }
        return !atStart
    }

    static let fileExtensions: [String] = ["json", "pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "txt", "yaml", "yml",
                                           "toml", "env", "ini", "cfg", "conf", "properties", "html", "js", "ts", "py", "rb", "go",
                                           "swift", "sh", "gpg", "asc", "xml", "keystore", "db", "sqlite", "log"]

    static func hasFileExtension(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = v.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot < v.count - 1 else { return false }
        let ext = v[(dot + 1)...].map(lower)
        return fileExtensions.contains { Array($0.utf8) == ext }
    }

    static func lowercaseWord(_ v: UnsafeBufferPointer<UInt8>, in words: [String]) -> Bool {
        let lowered = v.map(lower)
        return words.contains { Array($0.utf8) == lowered }
    }

    static func startsWith(_ v: [UInt8], _ prefix: String) -> Bool { v.starts(with: prefix.utf8) }

    static func find(_ v: UnsafeBufferPointer<UInt8>, _ needle: String) -> Int? {
        let nd = Array(needle.utf8)
        if v.count < nd.count { return nil }
        for i in 0...(v.count - nd.count) where v[i] == nd[0] {
            if (0..<nd.count).allSatisfy({ v[i + $0] == nd[$0] }) { return i }
        }
        return nil
    }

    static func find(_ v: [UInt8], _ needle: String) -> Bool {
        v.withUnsafeBufferPointer { find($0, needle) != nil }
    }

    static func hasSpace(_ v: UnsafeBufferPointer<UInt8>) -> Bool { v.contains { $0 == 0x20 || $0 == 0x09 } }
}
