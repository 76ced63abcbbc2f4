#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values that stand in for a secret without being one: the engine drops them after a rule's
/// regex, entropy and before its allowlists, for every rule (builtin or loaded), so a pack
/// does not have to repeat the same stopwords in every allowlist. A placeholder is not a
/// secret: it makes no finding and is not counted as suppressed.
///
/// Judged on the part after the rule's prefix (`ghp_abcdefghij…` is judged on `abcdefghij…`),
/// since a placeholder that keeps a real prefix is the common way to write one. The shape
/// tests (in-order runs, repetition, fill) must leave random tokens alone: a run counts only
/// when it is long for the alphabet and length of the value (a run of 6 in-order characters
/// has odds of about 2·62⁻⁵ ≈ 2·10⁻⁹ per position in a base62 token, but 2·16⁻⁵ ≈ 2·10⁻⁶ in a
/// hex one; see `minimumRun`), or when such runs make most of the value. PlaceholderTests hold
/// this against 100 000 random tokens of each common alphabet and length.
public enum Placeholder: ASCIIByteClasses {
    /// Values providers publish in their own documentation, matched whole. AWS's are covered by
    /// the `EXAMPLE` word already (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY);
    /// these are the ones without a marker word.
    static let documentationValues: Set<[UInt8]> = Set([
        // GitHub's REST API documentation token.
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "16C7e42F292c6912E7710c838347Ae178B4a",
        // Telegram's Bot API: "the token looks something like" this
        // (https://core.telegram.org/bots/api#authorizing-your-bot).
        "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
    ].map { Array($0.utf8) })

    static let documentationLengths = Set(documentationValues.map(\.count))
    static let shortestDocumentationValue = documentationLengths.min() ?? 0

    static let longestDocumentationValue = documentationLengths.max() ?? 0

    /// Whether a documentation value stands inside `v` as a whole part, between characters
    /// that are not letters or digits (or the ends): the password of a connection string
    /// (`mongodb://user:<the docs' password>@host`) or a token after its prefix. The values
    /// are 17 characters and longer, of mixed classes: no random value holds one by chance.
    static func containsDocumentationValue(_ v: Bytes) -> Bool {
        v.count > shortestDocumentationValue && documentationValue(in: v, overlapping: 0..<v.count)
    }

    /// Whether a documentation value stands in `buffer` (as a whole part, as above) overlapping
    /// `secret`: also when a rule took only a piece of it (a decoded `%40` made the docs'
    /// password `…P@ssw0rd`, and a URL pattern read the password up to that `@`).
    static func documentationValue(in buffer: Bytes, overlapping secret: Range<Int>) -> Bool {
        let n = buffer.count
        let from = max(0, secret.lowerBound - longestDocumentationValue + 1)
        let to = min(n, secret.upperBound + longestDocumentationValue - 1)
        for value in documentationValues where value.count <= to - from {
            let m = value.count, first = value[0]
            var i = max(from, secret.lowerBound - m + 1)
            while i < secret.upperBound && i + m <= to {
                if buffer[i] == first && (i == 0 || !isAlnum(buffer[i - 1])) && (i + m == n || !isAlnum(buffer[i + m])) {
                    var j = 1
                    while j < m && buffer[i + j] == value[j] { j += 1 }
                    if j == m { return true }
                }
                i += 1
            }
        }
        return false
    }

    /// Words that mark a value as a stand-in, lowercase. The longer ones may sit anywhere;
    /// `shortWords` (where a random token could hold them by chance: 5 letters of base62 in
    /// one case have odds of 2·62⁻⁵ per position) only at an edge of the value or next to a
    /// separator.
    static let words: [[UInt8]] = ["example", "placeholder", "changeme", "change_me", "change-me", "redacted",
                                   "replaceme", "replace_me", "insert_", "notreal", "not_real", "not-real", "yourkey"].map { Array($0.utf8) }
    static let shortWords: [[UInt8]] = ["sample", "dummy"].map { Array($0.utf8) }

    /// Why a value is a placeholder: which check took it for one. `rules check` names it when
    /// a rule's own example is dropped (never the value).
    public enum Reason: String, Sendable, CaseIterable {
        case documentationValue = "a value published in a provider's documentation"
        case template = "a template or variable reference"
        case markerWord = "a marker word such as example or placeholder"
        case standInWord = "a stand-in word such as password, written with digits and signs"
        case fill = "a fill of x, *, # or dots"
        case repetition = "a repeated character or block"
        case countingRun = "a counting run"
        case countingInDisguise = "a counting run in alternating case or interleaved"
        case spelledAlphabet = "the alphabet spelled in order between digits and signs"
    }

    /// Whether `secret` is a placeholder. `prefixes` are the rule's keywords (lowercase): the
    /// longest one the value starts with is set aside, with the separators after it.
    public static func isPlaceholder(_ secret: UnsafeRawBufferPointer, prefixes: [String] = []) -> Bool {
        reason(secret, prefixes: prefixes) != nil
    }

    public static func isPlaceholder(_ text: String, prefixes: [String] = []) -> Bool {
        reason(text, prefixes: prefixes) != nil
    }

    public static func reason(_ text: String, prefixes: [String] = []) -> Reason? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { reason(UnsafeRawBufferPointer($0), prefixes: prefixes) }
    }

    /// Which check takes `secret` for a placeholder, in the order they run; nil for a value
    /// that passes them all.
    public static func reason(_ secret: UnsafeRawBufferPointer, prefixes: [String] = []) -> Reason? {
        let n = secret.count
        if n == 0 { return nil }
        let v = secret.bindMemory(to: UInt8.self)
        if documentationLengths.contains(n) && documentationValues.contains(Array(v)) { return .documentationValue }
        if containsDocumentationValue(v) { return .documentationValue }
        if isTemplate(v) { return .template }
        let from = prefixEnd(v, prefixes: prefixes)
        let t = UnsafeBufferPointer(rebasing: v[from...])
        if t.isEmpty { return nil }
        if hasMarkerWord(t) { return .markerWord }
        if isDisguisedStandIn(t) { return .standInWord }
        if t.count < 4 { return nil }
        let minimum = minimumRun(t)
        let runs = t.count <= 128 && !t.contains(0x0A)
        if isFill(t, judgesRuns: runs) { return .fill }
        if isRepetitive(t, minimum: minimum, judgesRuns: runs) { return .repetition }
        if isInOrder(t, minimum: minimum, judgesRuns: runs) { return .countingRun }
        if runs && isCountingInDisguise(t, minimum: minimum) { return .countingInDisguise }
        if runs && spellsAlphabet(t) { return .spelledAlphabet }
        return nil
    }

    typealias Bytes = UnsafeBufferPointer<UInt8>

    // MARK: - Prefix

    /// Where the part after the longest matching prefix (and its separators) starts.
    static func prefixEnd(_ v: Bytes, prefixes: [String]) -> Int {
        var best = 0
        for p in prefixes {
            var i = 0, matched = true
            for k in p.utf8 {
                if i >= v.count - 1 || lower(v[i]) != k { matched = false; break }
                i += 1
            }
            if matched && i > best { best = i }
        }
        if best > 0 { while best < v.count, isSeparator(v[best]) || v[best] == 0x3A { best += 1 } }
        return best
    }

    // MARK: - Templates

    /// `${…}`, `{{…}}`, `%(…)s`, `#{…}` anywhere; `<…>`, `$VAR`, `@VAR@`, `%VAR%` as the whole value.
    static func isTemplate(_ v: Bytes) -> Bool {
        let n = v.count
        var i = 0
        while i + 1 < n {
            let a = v[i], b = v[i + 1]
            if ((a == 0x24 || a == 0x23) && b == 0x7B) || (a == 0x7B && b == 0x7B) {                  // ${ #{ {{
                if index(of: 0x7D, in: v, from: i + 2) != nil { return true }
            } else if a == 0x25 && b == 0x28, let close = index(of: 0x29, in: v, from: i + 2), close + 1 < n, v[close + 1] == 0x73 {
                return true                                                                              // %(name)s
            }
            i += 1
        }
        guard n >= 3 else { return false }
        if v[0] == 0x3C && v[n - 1] == 0x3E { return true }                                            // <your-token>
        if v[0] == 0x24 && isName(v, 1, n) { return true }                                              // $VAR
        if (v[0] == 0x40 || v[0] == 0x25) && v[n - 1] == v[0] && isName(v, 1, n - 1) { return true }    // @VAR@  %VAR%
        return false
    }

    static func isName(_ v: Bytes, _ from: Int, _ to: Int) -> Bool {
        guard from < to, isLetter(v[from]) || v[from] == 0x5F else { return false }
        var i = from
        while i < to { if !(isAlnum(v[i]) || v[i] == 0x5F) { return false }; i += 1 }
        return true
    }

    // MARK: - Words

    static func hasMarkerWord(_ t: Bytes) -> Bool {
        // One pass: at each position only the words starting with that letter are compared.
        var i = 0
        while i < t.count {
            for w in wordsByFirstByte[Int(lower(t[i]))] where matches(w, in: t, at: i) { return true }
            i += 1
        }
        // your_…_here, YOUR-API-KEY-HERE
        if let at = find(your, in: t), at + 4 < t.count, isSeparator(t[at + 4]), find(here, in: t, from: at + 5) != nil { return true }
        for w in shortWords {
            var from = 0
            while let at = find(w, in: t, from: from) {
                let end = at + w.count
                let edge = at == 0 || !isAlnum(t[at - 1]) || end == t.count || !isAlnum(t[end])
                // One case throughout (`dummy`, `DUMMY`, `Dummy`): a chance match in a random
                // token is likelier in mixed case.
                var tailLower = true, allUpper = true
                for i in at..<end {
                    if i > at && !isLower(t[i]) { tailLower = false }
                    if isLower(t[i]) { allUpper = false }
                }
                if edge && (tailLower || allUpper) { return true }
                from = at + 1
            }
        }
        return false
    }

    static let wordsByFirstByte: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 256)
        for w in words { table[Int(w[0])].append(w) }
        return table
    }()

    static func matches(_ word: [UInt8], in t: Bytes, at i: Int) -> Bool {
        guard i + word.count <= t.count else { return false }
        var j = 1
        while j < word.count && lower(t[i + j]) == word[j] { j += 1 }
        return j == word.count
    }

    static let your = Array("your".utf8), here = Array("here".utf8)

    /// The words test fixtures and tutorials write for a password, whole: `P@ssw0rd`,
    /// `S3cr3t!`, `Passw0rd123` are these in disguise (`isDisguisedStandIn`).
    static let standInWords: Set<[UInt8]> = Set(["password", "passwort", "passwd", "secret", "changeme"].map { Array($0.utf8) })

    /// Whether the whole value is one of `standInWords` written with digits and signs for
    /// letters (`0` o, `1` i or l, `3` e, `4` and `@` a, `5` and `$` s, `7` t) and trailing digits
    /// and punctuation (`P@55w0rd!`, `S3cr3t123`): the stand-in a test fixture writes, never a
    /// random token (a whole word, 6 to 8 letters, from at most 24 characters).
    static func isDisguisedStandIn(_ t: Bytes) -> Bool {
        guard t.count >= 6, t.count <= 24 else { return false }
        func letter(_ b: UInt8, oneAsL: Bool) -> UInt8 {
            switch b {
            case 0x30: return 0x6F  // 0 o
            case 0x31: return oneAsL ? 0x6C : 0x69  // 1 l or i
            case 0x33: return 0x65  // 3 e
            case 0x34, 0x40: return 0x61  // 4 @ a
            case 0x35, 0x24: return 0x73  // 5 $ s
            case 0x37: return 0x74  // 7 t
            default: return lower(b)
            }
        }
        // The words are 6 to 8 letters; what follows the word must be digits and punctuation.
        for length in 6...8 where length <= t.count && allTrailing(t, from: length) {
            for oneAsL in [false, true] {
                var word = [UInt8](repeating: 0, count: length)
                for i in 0..<length { word[i] = letter(t[i], oneAsL: oneAsL) }
                if standInWords.contains(word) { return true }
            }
        }
        return false
    }

    /// Whether `t[from...]` is digits and punctuation only (what follows a stand-in word).
    static func allTrailing(_ t: Bytes, from: Int) -> Bool {
        var i = from
        while i < t.count {
            let b = t[i]
            if !(isDigit(b) || b == 0x21 || b == 0x2E || b == 0x23 || b == 0x2A || b == 0x3F || b == 0x40 || b == 0x24) { return false }
            i += 1
        }
        return true
    }

    // MARK: - Shapes

    /// The shortest run (in-order or repeated) that counts by itself: a random value of the
    /// narrowest alphabet that holds this one, and of its length, has at most a 10⁻⁸ chance
    /// of holding one (about 2·n·A^-(L-1) for in-order runs either way), and never less than 6.
    /// So 7 for base62 tokens of 16 to 108 characters, 8 for 32 lowercase alphanumerics, 10 for
    /// 40 or 64 hex digits, 11 for 40 decimal digits.
    static func minimumRun(_ t: Bytes) -> Int {
        var digits = true, hexLower = true, hexUpper = true, alnumLower = true, alnumUpper = true
        for b in t {
            let d = isDigit(b)
            if !d { digits = false }
            if !(d || (b >= 0x61 && b <= 0x66)) { hexLower = false }
            if !(d || (b >= 0x41 && b <= 0x46)) { hexUpper = false }
            if !(d || isLower(b)) { alnumLower = false }
            if !(d || isUpper(b)) { alnumUpper = false }
        }
        let alphabet: Double = digits ? 10 : hexLower || hexUpper ? 16 : alnumLower || alnumUpper ? 36 : 62
        let steps = (log(2 * Double(t.count) * 1e8) / log(alphabet)).rounded(.up)
        return max(6, 1 + Int(steps))
    }

    /// `x`, `X`, `*`, `.`, `-`, `_`, `#`, `•` fill: half the value with some real fill (`x`, `*`,
    /// `#`, `•`) among it, or 8 in a row. `judgesRuns` is false for long or multi-line values:
    /// in an encoded blob (a PEM body, base64 of binary) runs are data, not filler.
    static func isFill(_ t: Bytes, judgesRuns: Bool) -> Bool {
        var run = 0, longest = 0, count = 0, strong = 0
        for b in t {
            let isStrong = b == 0x78 || b == 0x58 || b == 0x2A || b == 0x23 || b == 0xE2 || b == 0x80 || b == 0xA2
            if isStrong || b == 0x2E || b == 0x2D || b == 0x5F {
                run += 1; count += 1; longest = max(longest, run)
            } else {
                run = 0
            }
            if isStrong { strong += 1 }
        }
        if count * 2 >= t.count && (strong * 4 >= t.count || count == t.count) { return true }
        return judgesRuns && longest >= 8 && strong >= 4
    }

    /// One character or a short pattern repeated: `aaaa…`, `abab…`, `1234512345`: the pattern
    /// at least three times over and most of the value, or a run long for the alphabet.
    static func isRepetitive(_ t: Bytes, minimum: Int, judgesRuns: Bool) -> Bool {
        let n = t.count
        for p in 1...min(8, n / 2) {
            var stretch = 0, best = 0   // consecutive i with t[i] == t[i - p]
            var i = p
            while i < n {
                if t[i] == t[i - p] { stretch += 1; if stretch > best { best = stretch } } else { stretch = 0 }
                i += 1
            }
            let covered = best + p
            if covered >= 3 * p && covered * 10 >= n * 7 { return true }
            if judgesRuns && best >= minimum - 1 && covered >= 3 * p { return true }
        }
        return false
    }

    /// Runs of the alphabet or the digits in order, either way (`abcdef…`, `0123…`, `987…`):
    /// one long for the alphabet, or runs of 4 or more making 60% of the value.
    static func isInOrder(_ t: Bytes, minimum: Int, judgesRuns: Bool) -> Bool {
        let n = t.count
        var longest = 1, inRuns = 0
        var i = 0
        while i < n {
            var up = i, down = i
            while up + 1 < n && follows(t[up], t[up + 1]) { up += 1 }
            while down + 1 < n && follows(t[down + 1], t[down]) { down += 1 }
            let end = max(up, down)
            let length = end - i + 1
            if length > longest { longest = length }
            if length >= 4 { inRuns += length }
            i = end + 1
        }
        if judgesRuns && longest >= minimum { return true }
        return n >= 8 && inRuns * 10 >= n * 6
    }

    /// Counting runs a stand-in hides by alternating case or by interleaving two runs:
    /// `aBcDeFgHiJ…` (the alphabet in alternating case), `1a2b3c4d5e…`, `A1B2C3D4…` (two runs
    /// in step, every other character). Both are written as placeholders after a real prefix
    /// (`sk_live_aBcDeF…`, `ghp_A1B2C3…`). Odds are kept as for plain runs: a case-blind step
    /// has odds 2/62 in a mixed-case token instead of 1/62, so a case-blind run must be long
    /// for an alphabet of 31 (8 characters in a 24 to 64-character base62 token); an
    /// interleaved step compares a character with the one two places on, so `minimum - 1`
    /// steps in a row have the odds of a plain run of `minimum` (`minimum - 1` steps).
    static func isCountingInDisguise(_ t: Bytes, minimum: Int) -> Bool {
        let n = t.count
        var upper = false, lowerCase = false
        for b in t { if isUpper(b) { upper = true } else if isLower(b) { lowerCase = true } }
        let mixed = upper && lowerCase
        // In a single-case value a case-blind step is a plain step: the plain checks cover it.
        let blindMinimum = mixed ? max(minimum, 1 + Int((log(2 * Double(n) * 1e8) / log(31.0)).rounded(.up))) : Int.max
        if mixed && n >= blindMinimum {
            var run = 1
            for i in 1..<n {
                run = follows(lower(t[i - 1]), lower(t[i])) ? run + 1 : 1
                if run >= blindMinimum { return true }
            }
        }
        // Two runs in step, a digit run and a letter run (`1a2b…`, `A1B2…`): t[i + 2] follows
        // t[i] and t[i + 1] is of the other kind, for `minimum - 1` positions i in a row
        // (case-blind in a mixed-case value, with the case-blind minimum). The change of kind is
        // what makes it a pattern: a digit stretch of a random value often pairs up
        // (`…4455667…` is in a real Asana token, at odds of 1/10 a step).
        let steps = (mixed ? blindMinimum : minimum) - 1
        guard n >= steps + 2 else { return false }
        var stretch = 0
        for i in 0..<(n - 2) {
            let a = t[i], b = t[i + 2]
            let alternates = isAlnum(a) && isAlnum(t[i + 1]) && isDigit(a) != isDigit(t[i + 1])
            stretch = alternates && (mixed ? follows(lower(a), lower(b)) : follows(a, b)) ? stretch + 1 : 0
            if stretch >= steps { return true }
        }
        return false
    }

    /// The alphabet in order with digits and signs strewn between the letters, in any case:
    /// `abCD1EF+GHIJ…` (a stand-in base64 secret a tutorial writes by hand). The letters alone
    /// are read, case-blind; a run counts when it is long for 26 letters and for how many
    /// letters the value has (odds 2·m·26^-(L-1) ≤ 10⁻⁸ for m letters, so 8 letters in order
    /// in a 32-letter value, 9 in a 44-character base64 secret), which a hex value (6 letters)
    /// never reaches.
    static func spellsAlphabet(_ t: Bytes) -> Bool {
        var letters = 0
        for b in t where isLetter(b) { letters += 1 }
        guard letters >= 8 else { return false }
        let needed = 1 + Int((log(2 * Double(letters) * 1e8) / log(26.0)).rounded(.up))
        guard needed <= letters else { return false }
        var run = 0, previous: UInt8 = 0
        for b in t where isLetter(b) {
            let l = lower(b)
            run = run > 0 && l == previous + 1 ? run + 1 : 1
            previous = l
            if run >= needed { return true }
        }
        return false
    }

    /// Whether `b` comes right after `a` in 0…9, a…z, A…Z, with 9 going on to 0, a or A and z/Z
    /// going on to 0 or the other case (`…xyz0123`, `…9abcdef` of a hex counting run).
    static func follows(_ a: UInt8, _ b: UInt8) -> Bool {
        switch a {
        case 0x39: return b == 0x30 || b == 0x61 || b == 0x41
        case 0x7A: return b == 0x30 || b == 0x41
        case 0x5A: return b == 0x30 || b == 0x61
        case 0x30...0x38, 0x61...0x79, 0x41...0x59: return b == a + 1
        default: return false
        }
    }

    // MARK: - Bytes

    static func isSeparator(_ b: UInt8) -> Bool { b == 0x5F || b == 0x2D || b == 0x2E || b == 0x20 }

    static func index(of byte: UInt8, in v: Bytes, from: Int) -> Int? {
        var i = from
        while i < v.count { if v[i] == byte { return i }; i += 1 }
        return nil
    }

    /// Where lowercase `needle` first occurs in `hay`, ASCII case-insensitively.
    static func find(_ needle: [UInt8], in hay: Bytes, from: Int = 0) -> Int? {
        let m = needle.count
        guard m > 0, m <= hay.count else { return nil }
        let first = needle[0]
        var i = from
        while i + m <= hay.count {
            if lower(hay[i]) == first {
                var j = 1
                while j < m && lower(hay[i + j]) == needle[j] { j += 1 }
                if j == m { return i }
            }
            i += 1
        }
        return nil
    }
}
