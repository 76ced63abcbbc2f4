/// What documentation and tests write in a password slot: words of `placeholderVocabulary`
/// alone or joined, with digits and signs between them (`secret`, `myPassword`,
/// `thisismypassword`, `test_pass1`, `postgres-secret`, `admin:password`). In a slot that
/// holds nothing but a password (a connection string's `Password=`, a URI's userinfo,
/// `curl -u`, NuGet's `ClearTextPassword`, a Kubernetes Secret's value), these are the only
/// weak values that are no finding: any other word there is someone's password, reported at
/// low confidence (`hunter`, `whiteduke`, `TestFeedPassword`, a test feed's).
extension CredentialValueScorer {
    /// Lowercase. Placeholder words, the filler around them (`my`, `this is`, `here`), the
    /// accounts and services sample configurations name (`admin`, `root`, `postgres`, `db`) and
    /// the words tests use (`test`, `demo`, `local`, `wrong`).
    static let placeholderVocabulary: Set<[UInt8]> = Set([
        "password", "passwd", "passwort", "pass", "pwd", "pw", "passphrase", "secret", "secrets", "changeme", "change", "changeit",
        "me", "it", "test", "tests", "testing", "tester", "example", "examples", "sample", "dummy", "fake", "mock", "foo", "bar",
        "baz", "qux", "quux", "foobar", "xxx", "todo", "tbd", "fixme", "redacted", "hidden", "masked", "empty", "none", "null",
        "nil", "string", "value", "token", "key", "api", "apikey", "my", "your", "our", "the", "this", "is", "here", "insert",
        "enter", "put", "replace", "some", "super", "top", "very", "strong", "new", "old", "db", "database", "user", "username",
        "users", "admin", "administrator", "root", "guest", "default", "demo", "local", "localhost", "dev", "development", "prod",
        "production", "staging", "app", "application", "service", "postgres", "postgresql", "pg", "mysql", "mariadb", "mongo",
        "mongodb", "redis", "rabbitmq", "sql", "smtp", "mail", "email",
        // What a test says of the password it sets (`badpassword`, `wrong_pass`, `validsecret`).
        "bad", "wrong", "invalid", "incorrect", "good", "correct", "valid", "other", "another",
    ].map { Array($0.utf8) })
    static let longestPlaceholderWord = placeholderVocabulary.map(\.count).max() ?? 0

    /// Whether every run of letters in `v` is a word of `placeholderVocabulary` or several
    /// joined (`mysecretpassword`), with at least one such run; digits and signs may stand
    /// anywhere between them. 64 bytes at most: longer is no phrase of these.
    static func isPlaceholderPhrase(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = v.count
        guard n <= 64 else { return false }
        var runs = 0
        var i = 0
        while i < n {
            guard isLetter(v[i]) else { i += 1; continue }
            var j = i
            while j < n && isLetter(v[j]) { j += 1 }
            guard isJoinedWords(v[i..<j].map(lower)) else { return false }
            runs += 1
            i = j
        }
        return runs > 0
    }

    /// Lowercase words joined by `-`, `_` or `.`, one a credential word (`passwd-on-gateway`,
    /// `smtp_password`, `token-goes-here`): the slot described in prose, as documentation
    /// writes it. (`TestFeedPassword`, `Feed%Password1` are written as passwords are.)
    static func isSelfDescription(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        var separators = 0
        for b in v {
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") { separators += 1 } else if !isLower(b) { return false }
        }
        return separators > 0 && containsCredentialWord(v)
    }

    /// Whether `run` (lowercase letters) splits into vocabulary words: which prefixes can be
    /// reached by whole words, left to right (at most 64 × the longest word's length steps).
    private static func isJoinedWords(_ run: [UInt8]) -> Bool {
        var reached = [Bool](repeating: false, count: run.count + 1)
        reached[0] = true
        for start in 0..<run.count where reached[start] {
            var end = start + 2
            while end <= min(run.count, start + longestPlaceholderWord) {
                if !reached[end] && placeholderVocabulary.contains(Array(run[start..<end])) { reached[end] = true }
                end += 1
            }
        }
        return reached[run.count]
    }
}
