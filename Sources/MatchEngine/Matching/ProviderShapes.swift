#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A provider's documented value shape, for a credential's name that names the provider: a
/// generic finding (a secret-named assignment, the named-credential pass) whose name names
/// the provider (`TELEGRAM_BOT_TOKEN`, `meraki-api-key`, `AWS_SECRET_ACCESS_KEY`) while its
/// value has none of the provider's shapes is no credential of that provider: the provider's
/// own rule reports a real one (by its shape, the name or no name), so what is left is a
/// stand-in, a hash or a value cut or padded by hand. Data: `[[rules.providerShapes]]` of the
/// named-credential rule (Rules/named-credentials.toml), each entry with the documentation it
/// follows.
public struct ProviderShape: Sendable {
    /// Who the shape is (for messages and tests; printed from here, never from scanned text).
    public var provider: String
    /// Words of a credential's name that name the provider, lowercase letters and digits
    /// (`newrelic` is matched by `new_relic` and `NewRelic` too: adjacent words are joined).
    public var names: [[UInt8]]
    /// Words the name must also hold (`secret` for AWS's secret access key, not its key id or
    /// session token), lowercase; empty for any credential of the provider.
    public var heads: [[UInt8]]
    /// The whole value's shape (anchored).
    public var shape: Regex
    /// The alphabet the provider draws the value from, when it is a random string of one:
    /// a value drawn from a much narrower part of it (40 hex digits where 40 base64
    /// characters are documented: odds 4^-40) is a hash or a stand-in, not the provider's.
    public var alphabet: ByteSet?
    /// The provider rule that reports a real one, if keyshape has one (its examples must fit).
    public var rule: String?
    /// Where the shape is documented.
    public var source: String

    public init(provider: String, names: [String], heads: [String] = [], shape: Regex, alphabet: ByteSet? = nil,
                rule: String? = nil, source: String) {
        self.provider = provider
        self.names = names.map(ProviderShapes.key)
        self.heads = heads.map(ProviderShapes.key)
        self.shape = shape
        self.alphabet = alphabet
        self.rule = rule
        self.source = source
    }

    /// Whether `value` fits: the shape, and (with an alphabet) not a value far narrower than it.
    func fits(_ value: UnsafeRawBufferPointer, scratch: MatchScratch) -> Bool {
        guard case .match(let groups) = shape.firstMatch(in: value, from: 0, scratch: scratch),
              groups.first??.count == value.count else { return false }
        if let alphabet { return !ProviderShapes.isFarNarrower(value.bindMemory(to: UInt8.self), than: alphabet) }
        return true
    }
}

/// A set of ASCII bytes, written as ranges and single characters (`A-Za-z0-9/+`).
public struct ByteSet: Sendable, Hashable {
    var bits: (UInt64, UInt64) = (0, 0)

    public init(_ spec: String) {
        let b = Array(spec.utf8)
        var i = 0
        while i < b.count {
            if i + 2 < b.count && b[i + 1] == UInt8(ascii: "-") && b[i] <= b[i + 2] {
                for c in b[i]...b[i + 2] { insert(c) }
                i += 3
            } else {
                insert(b[i]); i += 1
            }
        }
    }

    mutating func insert(_ c: UInt8) {
        if c < 64 { bits.0 |= 1 << UInt64(c) } else if c < 128 { bits.1 |= 1 << UInt64(c - 64) }
    }

    func contains(_ c: UInt8) -> Bool {
        c < 64 ? bits.0 & (1 << UInt64(c)) != 0 : c < 128 ? bits.1 & (1 << UInt64(c - 64)) != 0 : false
    }

    var count: Int { bits.0.nonzeroBitCount + bits.1.nonzeroBitCount }

    func intersection(_ o: ByteSet) -> ByteSet {
        var s = self
        s.bits = (bits.0 & o.bits.0, bits.1 & o.bits.1)
        return s
    }

    public static func == (a: ByteSet, b: ByteSet) -> Bool { a.bits == b.bits }
    public func hash(into h: inout Hasher) { h.combine(bits.0); h.combine(bits.1) }
}

/// The provider shapes of a rule set, and the check the matcher runs on a generic rule's match.
public struct ProviderShapes: Sendable {
    public let entries: [ProviderShape]
    /// How far before the value the name is read (the match's start, at most this far back):
    /// credential names are under 80 bytes (`CredentialNameScorer.maximumLength`), with the
    /// quotes, spaces and operator between.
    static let nameReach = 100

    /// Every entry's names, for a first look at the name's bytes before it is split into words.
    let allNames: [[UInt8]]

    public init(_ entries: [ProviderShape]) {
        self.entries = entries
        allNames = Array(Set(entries.flatMap(\.names))).filter { !$0.isEmpty }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Whether the name before `secret` names a provider of `entries` while the value fits
    /// none of that provider's shapes. The name is read from the match's start, and back over
    /// the name the match starts inside (a regex rule's match starts at its keyword:
    /// `TELEGRAM_BOT_TOKEN` is matched from `TOKEN`), at most `nameReach` bytes before the value.
    func contradicts(_ buffer: UnsafeRawBufferPointer, secret: Range<Int>, match: Range<Int>, scratch: MatchScratch) -> Bool {
        let limit = max(0, secret.lowerBound - ProviderShapes.nameReach)
        var from = max(match.lowerBound, limit)
        while from > limit, ProviderShapes.isNameByte(buffer[from - 1]) { from -= 1 }
        guard from < secret.lowerBound else { return false }
        // Most generic matches name no provider of the list: a look for the names' letters,
        // without allocating, comes before the words.
        let region = UnsafeRawBufferPointer(rebasing: buffer[from..<secret.lowerBound])
        guard allNames.contains(where: { ProviderShapes.mentions(region, $0) }) else { return false }
        var words: [[UInt8]] = []
        CredentialNameScorer.split(UnsafeRawBufferPointer(rebasing: buffer[from..<secret.lowerBound]).bindMemory(to: UInt8.self), into: &words)
        if words.isEmpty { return false }
        let value = UnsafeRawBufferPointer(rebasing: buffer[secret])
        var named = false
        for entry in entries where ProviderShapes.names(entry, in: words) {
            if entry.fits(value, scratch: scratch) { return false }
            named = true
        }
        return named
    }

    /// Whether `words` name the entry's provider (one word, or two or three adjacent joined)
    /// and hold one of its heads.
    static func names(_ entry: ProviderShape, in words: [[UInt8]]) -> Bool {
        if !entry.heads.isEmpty && !words.contains(where: { entry.heads.contains($0) }) { return false }
        for start in words.indices {
            var joined: [UInt8] = []
            for end in start..<min(words.count, start + 3) {
                joined += words[end]
                if entry.names.contains(joined) { return true }
            }
        }
        return false
    }

    /// Narrower parts of an alphabet a stand-in or a hash is drawn from.
    static let narrowerAlphabets: [ByteSet] = ["0-9", "0-9a-f", "0-9A-F", "0-9a-z", "0-9A-Z", "a-z", "A-Z", "A-Za-z"].map(ByteSet.init)

    /// Whether every byte of `v` lies in a part of `alphabet` so much narrower that a random
    /// value of `v`'s length drawn from the whole alphabet lies there with odds under 10^-6:
    /// (narrow / whole)^n. 40 hex digits against base64's 64: 4^-40; 40 base62 characters
    /// against 64 (no `/` or `+`, as a quarter of real AWS secret keys): 0.28, kept.
    static func isFarNarrower(_ v: UnsafeBufferPointer<UInt8>, than alphabet: ByteSet) -> Bool {
        let whole = Double(alphabet.count)
        guard whole > 1, !v.isEmpty else { return false }
        for part in narrowerAlphabets where v.allSatisfy(part.contains) {
            let narrow = Double(part.intersection(alphabet).count)
            if narrow < whole && Double(v.count) * log2(whole / narrow) > log2(1e6) { return true }
        }
        return false
    }

    /// Whether `name` (lowercase letters and digits) occurs in `region`, ASCII
    /// case-insensitively and across the separators that join a name's words (`new_relic`).
    static func mentions(_ region: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        let m = name.count, n = region.count
        var i = 0
        while i + m <= n {
            var j = 0, k = i
            while j < m && k < n {
                let b = region[k]
                if j > 0 && (b == 0x5F || b == 0x2D || b == 0x2E) { k += 1; continue }
                if (b | 0x20) != name[j] { break }
                j += 1; k += 1
            }
            if j == m { return true }
            i += 1
        }
        return false
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b == 0x2E
    }

    /// A provider name's lookup key: its lowercase ASCII letters and digits.
    static func key(_ s: String) -> [UInt8] {
        s.utf8.compactMap { b in
            if b >= 0x41 && b <= 0x5A { return b + 32 }
            if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) { return b }
            return nil
        }
    }
}
