/// What each byte can be part of, one table lookup a byte: the candidate finder's only work
/// on ordinary text is this lookup plus a length check per run of letters.
enum ByteClass {
    /// In a base64 run (either alphabet: letters, digits, `+ / - _`).
    static let run: UInt16 = 1 << 0
    /// Only in the standard alphabet (`+`, `/`).
    static let standardOnly: UInt16 = 1 << 1
    /// Only in the URL alphabet (`-`, `_`).
    static let urlOnly: UInt16 = 1 << 2
    /// A run byte that is not a hex digit.
    static let notHex: UInt16 = 1 << 3
    /// May appear in a URL run around a `%XX` (RFC 3986 unreserved, `% : / ? # @ & + =`;
    /// not quotes, brackets, `,` or `;`, which end a URL far more often than they sit in one).
    static let url: UInt16 = 1 << 4
    static let hexDigit: UInt16 = 1 << 5
    /// Bytes the finder looks at even outside a run: `%`, `\`, `:`, quotes, newline.
    static let trigger: UInt16 = 1 << 6
    static let quote: UInt16 = 1 << 7
    static let alphanumeric: UInt16 = 1 << 8
    static let base64Character: UInt16 = 1 << 9
    /// An upper-case letter or a digit: a base64 run without one is a word or a
    /// `snake_case_name`, not a value (`SpanFinder.considerRun`).
    static let strong: UInt16 = 1 << 10

    static let table: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 256)
        func set(_ bytes: String, _ bits: UInt16) { for b in bytes.utf8 { t[Int(b)] |= bits } }
        let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", lower = "abcdefghijklmnopqrstuvwxyz", digits = "0123456789"
        set(upper + lower + digits, run | url | alphanumeric | base64Character)
        set("ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ", notHex)
        set("abcdefABCDEF" + digits, hexDigit)
        set("+/", run | standardOnly | notHex | url | base64Character)
        set("-_", run | urlOnly | notHex | url | base64Character)
        set(upper + digits, strong)
        set(".~:?#@&=%", url)
        set("%\\:\n", trigger)
        set("\"'`", trigger | quote)
        return t
    }()

    /// The 6-bit value of a base64 character of either alphabet, 0xFF for anything else.
    static let base64Value: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, b) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() { t[Int(b)] = UInt8(i) }
        t[Int(UInt8(ascii: "+"))] = 62; t[Int(UInt8(ascii: "-"))] = 62
        t[Int(UInt8(ascii: "/"))] = 63; t[Int(UInt8(ascii: "_"))] = 63
        return t
    }()

    /// The value of a hex digit, 0xFF for anything else.
    static let hexValue: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, b) in "0123456789abcdef".utf8.enumerated() { t[Int(b)] = UInt8(i) }
        for (i, b) in "ABCDEF".utf8.enumerated() { t[Int(b)] = UInt8(10 + i) }
        return t
    }()
}
