/// How a span of text was encoded. The raw values are what reports print in `decoded`
/// (outer encodings first), so they are part of the user-facing contract: add, never rename.
public enum Encoding: String, Sendable, Hashable, CaseIterable {
    /// Standard alphabet (`+`, `/`), padded or not; also a run that uses neither `+/` nor `-_`.
    case base64
    /// URL-safe alphabet (`-`, `_`), padded or not.
    case base64url
    /// An even run of 32 or more hex digits (optionally after `0x`).
    case hex
    /// `%XX` escapes in a run of URL characters.
    case percent
    /// `\uXXXX` (surrogate pairs joined), `\xXX`, `\/`, `\"` and the short escapes inside a string literal.
    case jsonEscape = "json-escape"
    /// The same literal holding an octal escape (`\101`): C, Python, shell.
    case cEscape = "c-escape"
    /// The payload of a `data:` URI, base64 (`;base64,`) or percent form.
    case dataURI = "data-uri"
}
