/// Reads a pattern written for RE2 / Go's `regexp` (gitleaks' engine) as PCRE2 matching raw
/// bytes.
///
/// Most of RE2's syntax is PCRE2's too (`(?i)` mid-pattern, `(?i:…)`, `\z`, `(?P<name>…)`,
/// `[[:alnum:]]`, `\x60`), so a pattern is compiled as written first and translated only when
/// PCRE2 refuses it (RuleLoader): a pattern PCRE2 accepts means what PCRE2 says. What the
/// translation rewrites are the constructs RE2 accepts and PCRE2, without UTF mode (keyshape
/// matches bytes, and binaries are not UTF-8), refuses or reads differently:
///
/// - `\x{HHHH}` above 0xFF: the code point's UTF-8 bytes, as a group (`(?:\xE2\x80\xA8)`), so a
///   quantifier after it applies to the whole character as in RE2.
/// - a non-ASCII literal character: its UTF-8 bytes as a group, for the same reason.
/// - a bracket class that holds non-ASCII characters or `\x{…}` above 0xFF (not negated, no
///   range ending in one): an alternation of the ASCII part and each character's bytes. A
///   negated one, or a range over non-ASCII code points, has no byte-level equivalent short
///   of a UTF-8 decoder in the pattern; it is left as is, and the rule's load error stands.
/// - `\v`: RE2's vertical tab (`\x0B`); PCRE2's `\v` is any vertical whitespace.
/// - named groups (`(?P<name>…)`, `(?<name>…)`): plain groups. RE2 allows names PCRE2 refuses
///   (a leading digit, more than 32 characters), and rules refer to groups by number.
///
/// Everything else is copied byte for byte, including `\Q…\E` quoting.
public enum RE2Translation {
    public static func translate(_ pattern: String) -> String {
        let s = Array(pattern.unicodeScalars)
        var out = ""
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "\\" {
                guard i + 1 < s.count else { out.unicodeScalars.append(c); i += 1; continue }
                let n = s[i + 1]
                if n == "Q" {
                    // Quoted to `\E` (or the end): copied whole, nothing inside is syntax.
                    var j = i + 2
                    while j < s.count && !(s[j] == "\\" && j + 1 < s.count && s[j + 1] == "E") { j += 1 }
                    let end = min(s.count, j + 2)
                    for k in i..<end { out.unicodeScalars.append(s[k]) }
                    i = end
                    continue
                }
                if n == "v" { out += "\\x0B"; i += 2; continue }
                if n == "x", let (value, next) = braceHex(s, i + 2) {
                    out += value > 0xFF ? bytesGroup(value) : "\\x{" + String(value, radix: 16) + "}"
                    i = next
                    continue
                }
                out.unicodeScalars.append(c)
                out.unicodeScalars.append(n)
                i += 2
                continue
            }
            if c == "[" {
                let (text, next) = bracketClass(s, i)
                out += text
                i = next
                continue
            }
            if c == "(" && i + 2 < s.count && s[i + 1] == "?" {
                // `(?P<name>` and `(?<name>` (not the lookbehinds `(?<=` and `(?<!`).
                var j = i + 2
                if s[j] == "P" { j += 1 }
                if j < s.count && s[j] == "<" && j + 1 < s.count && s[j + 1] != "=" && s[j + 1] != "!" {
                    var k = j + 1
                    while k < s.count && s[k] != ">" && (isWord(s[k])) { k += 1 }
                    if k < s.count && s[k] == ">" && k > j + 1 {
                        out += "("
                        i = k + 1
                        continue
                    }
                }
            }
            if c.value > 0x7F {
                out += bytesGroup(c.value)
                i += 1
                continue
            }
            out.unicodeScalars.append(c)
            i += 1
        }
        return out
    }

    private static func isWord(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
    }

    /// `{HHHH}` at `at`: the value and the index after `}`.
    private static func braceHex(_ s: [Unicode.Scalar], _ at: Int) -> (UInt32, Int)? {
        guard at < s.count, s[at] == "{" else { return nil }
        var j = at + 1
        var digits = ""
        while j < s.count && s[j] != "}" { digits.unicodeScalars.append(s[j]); j += 1 }
        guard j < s.count, !digits.isEmpty, digits.count <= 8, let v = UInt32(digits, radix: 16) else { return nil }
        return (v, j + 1)
    }

    /// The code point's UTF-8 bytes as `(?:\xHH…)`; an invalid one (a surrogate, past
    /// 0x10FFFF) is left as RE2 wrote it, so PCRE2's error names it.
    private static func bytesGroup(_ value: UInt32) -> String {
        guard let scalar = Unicode.Scalar(value) else { return "\\x{" + String(value, radix: 16) + "}" }
        return "(?:" + hexBytes(scalar) + ")"
    }

    private static func hexBytes(_ scalar: Unicode.Scalar) -> String {
        var text = ""
        for b in String(scalar).utf8 {
            text += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
        }
        return text
    }

    /// The bracket class starting at `at` (`[`): its translation and the index after `]`.
    private static func bracketClass(_ s: [Unicode.Scalar], _ at: Int) -> (String, Int) {
        var j = at + 1
        var negated = false
        if j < s.count && s[j] == "^" { negated = true; j += 1 }
        // A `]` first is a literal member, as in RE2 and PCRE2.
        var ascii = ""
        var wide: [Unicode.Scalar] = []
        var canSplit = true
        var first = true
        var previousWasWide = false
        while j < s.count {
            let c = s[j]
            if c == "]" && !first { break }
            first = false
            if c == "[" && j + 1 < s.count && s[j + 1] == ":" {
                // A POSIX class `[:alpha:]` / `[:^alpha:]`, copied whole.
                var k = j + 2
                while k + 1 < s.count && !(s[k] == ":" && s[k + 1] == "]") { k += 1 }
                let end = min(s.count, k + 2)
                for m in j..<end { ascii.unicodeScalars.append(s[m]) }
                j = end
                previousWasWide = false
                continue
            }
            if c == "\\" && j + 1 < s.count {
                let n = s[j + 1]
                if n == "v" { ascii += "\\x0B"; j += 2; previousWasWide = false; continue }
                if n == "x", let (value, next) = braceHex(s, j + 2) {
                    if value > 0x7F, let scalar = Unicode.Scalar(value) {
                        wide.append(scalar)
                        previousWasWide = true
                    } else {
                        ascii += "\\x{" + String(value, radix: 16) + "}"
                        previousWasWide = false
                    }
                    j = next
                    continue
                }
                ascii.unicodeScalars.append(c)
                ascii.unicodeScalars.append(n)
                j += 2
                previousWasWide = false
                continue
            }
            if c == "-" && (previousWasWide || (j + 1 < s.count && s[j + 1].value > 0x7F)) {
                canSplit = false  // a range with a non-ASCII end
            }
            if c.value > 0x7F {
                wide.append(c)
                previousWasWide = true
            } else {
                ascii.unicodeScalars.append(c)
                previousWasWide = false
            }
            j += 1
        }
        let end = min(s.count, j + 1)
        if wide.isEmpty || negated || !canSplit || j >= s.count {
            // Nothing to rewrite, or nothing that can be: copied as written (a `\v` inside
            // still becomes the vertical tab).
            if wide.isEmpty && j < s.count {
                return ("[" + (negated ? "^" : "") + ascii + "]", end)
            }
            var text = ""
            for m in at..<end { text.unicodeScalars.append(s[m]) }
            return (text, end)
        }
        var branches: [String] = []
        if !ascii.isEmpty { branches.append("[" + ascii + "]") }
        for w in wide { branches.append(hexBytes(w)) }
        return ("(?:" + branches.joined(separator: "|") + ")", end)
    }
}
