/// What a name says about the value under it: whether it names a credential, which kind, how
/// surely, and the provider it names (an index into the rule's fixed `providers` list, never
/// text from the scanned input).
///
/// A name is read as words (`MAPQUEST_API_KEY`, `mapquestApiKey`, `x-mapquest-api-key` are all
/// `mapquest api key`). The last credential word is the head: a word after it must be one that
/// still names the value itself (`password_value`, `token_b64`), so metadata about a credential
/// (`token_type`, `key_id`, `password_policy`, `secret_name`, `max_tokens`) names no credential.
struct CredentialName: Equatable {
    enum Kind: Equatable {
        /// A password slot: any value there that is not a placeholder is someone's password,
        /// weak or not (reported at low confidence when it does not look random).
        case password
        /// A key, token or secret: only a random-looking value is one.
        case key
        /// `Authorization` and its kin: the value may start with a scheme word (`Bearer`).
        case authorization
    }

    var kind: Kind
    /// A strong credential word (password, secret, token, API key, private key...) rather than
    /// a weak one (auth, pass, a key with a loose qualifier).
    var strong: Bool
    /// Index into `NamedCredentialRule.providers`.
    var provider: Int?
}

/// Reads names. Pure and allocation-light: names are at most `maximumLength` bytes.
struct CredentialNameScorer: ASCIIByteClasses {
    static let maximumLength = 80
    /// The provider names of the rule, keyed by their lowercase letters and digits
    /// (`New Relic` is `newrelic`, matched against one word or adjacent words joined).
    let providerKeys: [[UInt8]: Int]
    let longestProviderKey: Int

    init(providers: [String]) {
        var keys: [[UInt8]: Int] = [:]
        for (i, p) in providers.enumerated() {
            let key = Array(p.utf8).filter { CredentialNameScorer.isAlnum($0) }.map(CredentialNameScorer.lower)
            if !key.isEmpty && keys[key] == nil { keys[key] = i }
        }
        providerKeys = keys
        longestProviderKey = keys.keys.map(\.count).max() ?? 0
    }

    // MARK: - Vocabulary (lowercase words)

    /// Head words that name a secret whatever precedes them.
    static let strongKeyWords: Set<[UInt8]> = Set(["secret", "token", "apikey", "apitoken", "accesstoken", "authtoken", "accesskey",
                                                   "secretkey", "privatekey", "clientsecret", "appsecret", "credential", "bearer",
                                                   "passphrase", "refreshtoken", "sessiontoken", "secrettoken", "apisecret",
                                                   "signingkey", "encryptionkey", "masterkey", "licensekey", "subscriptionkey",
                                                   "xapikey", "accountkey", "servicekey", "consumersecret",
                                                   "webhooksecret", "sharedsecret", "privatetoken", "pat"].map { Array($0.utf8) })
    static let passwordWords: Set<[UInt8]> = Set(["password", "passwd", "pwd", "cleartextpassword", "passwort", "contrasena",
                                                  "senha", "motdepasse"].map { Array($0.utf8) })
    static let weakPasswordWords: Set<[UInt8]> = Set(["pass", "pw"].map { Array($0.utf8) })
    static let weakKeyWords: Set<[UInt8]> = Set(["auth", "credentials", "creds", "cred"].map { Array($0.utf8) })
    static let authorizationWords: Set<[UInt8]> = Set(["authorization", "authorisation", "proxyauthorization"].map { Array($0.utf8) })
    /// Words that make `key` a credential's name when they come right before it.
    static let keyQualifiers: Set<[UInt8]> = Set(["api", "access", "secret", "private", "auth", "master", "signing",
                                                  "encryption", "app", "application", "license", "licence", "subscription", "service",
                                                  "account", "consumer", "developer", "integration", "server", "admin", "management",
                                                  "write", "read", "ingest", "ingestion", "partner", "merchant", "sdk", "rest",
                                                  "hmac", "shared", "webhook", "personal"].map { Array($0.utf8) })
    /// Words after the head that still name the value itself.
    static let valueSuffixes: Set<[UInt8]> = Set(["value", "val", "str", "string", "b64", "base64", "hex", "raw", "data", "text",
                                                  "plain", "cleartext", "literal", "secret", "key", "token", "v1", "v2", "prod",
                                                  "production", "dev", "staging", "live", "test"].map { Array($0.utf8) })
    /// Words before the head that make the name no credential's: public halves, tokens that
    /// are protocol state, database and keyboard keys, test fixtures.
    static let disqualifiers: Set<[UInt8]> = Set(["public", "pub", "publishable", "csrf", "xsrf", "authenticity", "page", "next", "continuation",
                                                  "cursor", "sync", "nonce", "idempotency", "request", "correlation", "device",
                                                  "registration", "push", "fcm", "apns", "notification", "verification", "invite",
                                                  "invitation", "unsubscribe", "confirmation", "reset", "upload", "download", "share",
                                                  "state", "lock", "primary", "foreign", "sort", "partition", "cache", "hash", "dict",
                                                  "map", "lookup", "routing", "object", "hot", "short", "shortcut", "keyboard", "max",
                                                  "min", "num", "number", "total", "count", "fake", "dummy", "mock", "example", "sample",
                                                  "stub", "placeholder", "new", "old", "confirm", "repeat", "retype", "forgot", "forgotten",
                                                  "expected", "wrong", "invalid", "bad", "missing", "empty", "no", "has", "is", "use",
                                                  "show", "hide", "toggle", "input", "field", "label", "prompt", "enter", "change",
                                                  "update", "validate", "check", "verify", "generate", "create", "get", "set", "load",
                                                  "read", "parse", "encode", "decode", "hashed", "encrypted", "masked", "len",
                                                  "length", "type", "kind", "name", "id", "idx", "index", "column", "col", "sign",
                                                  "eos", "bos", "pad", "unk", "mask", "sep", "cls", "special", "start", "end", "stop",
                                                  "prev", "previous", "last", "first", "cancel", "cancellation", "lexer", "parser",
                                                  "ast", "syntax", "grammar", "tokenizer", "tokenize", "test", "testing", "amz", "bucket", "non", "output", "pagination", "paginator", "marker",
                                                  "disable", "disabled", "enable", "enabled", "express", "require", "required", "allow",
                                                  "lifecycle", "mock", "result", "reserved", "config", "dedup"].map { Array($0.utf8) })
    /// Words before `key` that make it a public identifier, not a secret: a Pusher or Dropbox
    /// app key, an Algolia search key, a reCAPTCHA site key, a Supabase anon key.
    static let publicKeyQualifiers: Set<[UInt8]> = Set(["app", "application", "search", "mobile", "content", "site", "browser",
                                                        "frontend", "anon", "anonymous", "js", "publishable", "client"].map { Array($0.utf8) })

    // MARK: - Reading a name

    /// The credential a name names, nil for none. `name` is the token as written (letters,
    /// digits, `_`, `-`, `.`); leading dashes and `$` are set aside by the caller.
    func score(_ name: UnsafeBufferPointer<UInt8>) -> CredentialName? {
        if name.count < 2 || name.count > CredentialNameScorer.maximumLength { return nil }
        var words: [[UInt8]] = []
        words.reserveCapacity(6)
        CredentialNameScorer.split(name, into: &words)
        if words.isEmpty || words.count > 12 { return nil }
        // The head: the last credential word.
        var head = -1
        var kind = CredentialName.Kind.key
        var strong = true
        for (i, w) in words.enumerated() {
            if let (k, s) = headKind(words, i) { head = i; kind = k; strong = s; _ = w }
        }
        // One word ending in a credential word (`SOMEVENDORKEY`, `mapquestapikey`,
        // `dbpassword`): the part before it must be a provider's name or a credential word.
        if head < 0 { return oneWordName(words) }
        // AWS's `ClientToken` and its kin are idempotency keys, not credentials.
        if words[head] == CredentialNameScorer.token, head > 0, words[head - 1] == CredentialNameScorer.client { return nil }
        if words[head] == CredentialNameScorer.key || words[head] == CredentialNameScorer.appkey,
           words[..<head].contains(where: { CredentialNameScorer.publicKeyQualifiers.contains($0) }) { return nil }
        for w in words[(head + 1)...] where !CredentialNameScorer.valueSuffixes.contains(w) && !CredentialNameScorer.isDigits(w) {
            return nil
        }
        let provider = providerIndex(words, before: head)
        // A provider's own words (`new relic`) disqualify nothing.
        for (i, w) in words[..<head].enumerated() where CredentialNameScorer.disqualifiers.contains(w) {
            if let p = provider, p.words.contains(i) { continue }
            return nil
        }
        return CredentialName(kind: kind, strong: strong || provider != nil, provider: provider?.index)
    }

    /// Whether word `i` is a head, and of which kind.
    private func headKind(_ words: [[UInt8]], _ i: Int) -> (CredentialName.Kind, Bool)? {
        let w = words[i]
        if CredentialNameScorer.passwordWords.contains(w) { return (.password, true) }
        if CredentialNameScorer.weakPasswordWords.contains(w) { return i > 0 ? (.password, false) : nil }
        if CredentialNameScorer.strongKeyWords.contains(w) { return (.key, true) }
        if CredentialNameScorer.authorizationWords.contains(w) { return (.authorization, true) }
        if CredentialNameScorer.weakKeyWords.contains(w) { return (.key, false) }
        if w == CredentialNameScorer.key, i > 0 {
            let before = words[i - 1]
            if CredentialNameScorer.keyQualifiers.contains(before) {
                let strong = before != CredentialNameScorer.app && before != CredentialNameScorer.service
                return (.key, strong)
            }
            if providerKeys[before] != nil { return (.key, true) }
            // `somevendor_key`, `SOMEVENDOR_KEY`: a key of something unnamed, weakly.
            if before.count >= 3 && !CredentialNameScorer.isDigits(before) && !CredentialNameScorer.disqualifiers.contains(before) {
                return (.key, false)
            }
        }
        return nil
    }

    private static let key = Array("key".utf8)
    private static let appkey = Array("appkey".utf8)
    private static let token = Array("token".utf8)
    private static let client = Array("client".utf8)
    private static let app = Array("app".utf8)
    private static let service = Array("service".utf8)
    private static let oneWordSuffixes: [([UInt8], CredentialName.Kind)] = {
        let table: [(String, CredentialName.Kind)] = [
            ("password", .password), ("passwd", .password), ("apikey", .key), ("apitoken", .key), ("accesstoken", .key),
            ("authtoken", .key), ("secretkey", .key), ("accesskey", .key), ("secret", .key), ("token", .key), ("key", .key),
        ]
        return table.map { (Array($0.0.utf8), $0.1) }
    }()

    private func oneWordName(_ words: [[UInt8]]) -> CredentialName? {
        guard words.count <= 2, let w = words.last, w.count > 4 else { return nil }
        if words.count == 2 && providerKeys[words[0]] == nil { return nil }
        for (suffix, kind) in CredentialNameScorer.oneWordSuffixes where w.count > suffix.count && w.ends(with: suffix) {
            let stem = Array(w[..<(w.count - suffix.count)])
            if let p = providerKeys[stem] { return CredentialName(kind: kind, strong: true, provider: p) }
            // `dbpassword`, `smtppassword`: a password word needs no provider.
            if kind == .password && stem.count <= 12 { return CredentialName(kind: .password, strong: true, provider: nil) }
            if suffix.count >= 6 && stem.count <= 12 && !CredentialNameScorer.disqualifiers.contains(stem) {
                return CredentialName(kind: .key, strong: true, provider: nil)
            }
            // `SOMEVENDORKEY`: a key of something unnamed, weakly (`monkey`, `hotkey` are too short).
            if stem.count >= 6 && words.count == 1 && !CredentialNameScorer.disqualifiers.contains(stem) {
                return CredentialName(kind: .key, strong: false, provider: nil)
            }
            return nil
        }
        return nil
    }

    /// The provider named by words before the head, one word or up to three joined, and the
    /// words it took.
    private func providerIndex(_ words: [[UInt8]], before head: Int) -> (index: Int, words: Range<Int>)? {
        if providerKeys.isEmpty { return nil }
        var best: (Int, Range<Int>)?
        for start in 0..<head {
            var joined: [UInt8] = []
            for end in start..<min(head, start + 3) {
                joined += words[end]
                if joined.count > longestProviderKey { break }
                if let p = providerKeys[joined] { best = (p, start..<(end + 1)) }
            }
            if best != nil { return best }
        }
        return nil
    }

    // MARK: - Words

    /// Splits at `_`, `-`, `.`, `$`, `:`, lower-to-upper changes (`apiKey`) and the end of an
    /// upper-case run before a capitalised word (`APIKey` is `api key`); lowercased.
    static func split(_ name: UnsafeBufferPointer<UInt8>, into words: inout [[UInt8]]) {
        var current: [UInt8] = []
        let n = name.count
        for i in 0..<n {
            let b = name[i]
            guard isAlnum(b) else {
                if !current.isEmpty { words.append(current); current = [] }
                continue
            }
            if !current.isEmpty && isUpper(b) {
                let prev = name[i - 1]
                let nextLower = i + 1 < n && isLower(name[i + 1])
                if isLower(prev) || isDigit(prev) && current.count > 1 || (isUpper(prev) && nextLower) {
                    words.append(current)
                    current = []
                }
            }
            current.append(lower(b))
        }
        if !current.isEmpty { words.append(current) }
    }

    static func isDigits(_ w: [UInt8]) -> Bool { !w.isEmpty && w.allSatisfy(isDigit) }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
