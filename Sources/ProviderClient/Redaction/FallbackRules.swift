import Foundation
import MatchEngine

/// The redaction rules compiled into the library, used alongside the caller's `RuleSet`
/// and alone when there is none. They catch the shapes a provider client handles every
/// day, loosely (no length or entropy limits): over-redacting a log line is cheap.
enum FallbackRules {
    static let patterns: [(id: String, regex: String, keywords: [String])] = [
        // Anthropic keys of every kind (api03, admin01, oat01, ...).
        ("fallback-anthropic", #"(?<![A-Za-z0-9_\-])(sk-ant-[A-Za-z0-9_\-]{8,})"#, ["sk-ant-"]),
        // OpenAI and the many compatible providers that copied the `sk-` prefix.
        ("fallback-sk", #"(?<![A-Za-z0-9_\-])(sk-[A-Za-z0-9_\-]{12,})"#, ["sk-"]),
        // Bearer tokens in headers, curl lines and error strings.
        ("fallback-bearer", #"(?i:bearer)[ \t]+([A-Za-z0-9_\-.~+/]{6,}=*)"#, ["bearer"]),
        // `x-api-key: V`, `"api_key": "V"`, `Authorization=V` and friends: the value after
        // a credential-named field, whatever it looks like. The scheme word alone is not
        // a value, so `Authorization: Bearer <redacted>` stays as it is.
        ("fallback-credential-field",
         #"(?i:authorization|x-api-key|api[_\-]?key|x-goog-api-key|access[_\-]?token|auth[_\-]?token|client[_\-]?secret|app[_\-]?token|password)["']?[ \t]*[:=][ \t]*["']?(?:(?i:bearer|basic|token)[ \t]+)?(?!(?i:bearer|basic|token)(?:[ \t]|$))([^\s"',;&<>]{4,})"#,
         ["authorization", "key", "token", "secret", "password"]),
        // URL parameters named like credentials: `?key=V`, `&token=V`, `#access_token=V`.
        ("fallback-url-parameter",
         #"[?&#;](?i:[a-z_\-]*(?:key|token|secret|password|sig|signature|auth))=([^&#\s"'<>]+)"#,
         ["key", "token", "secret", "password", "sig", "auth"]),
    ]

    /// Compiled once; the patterns are constants, so a failure is a programming error
    /// caught by the tests, and the rule is skipped rather than crashing an app.
    static let ruleSet: RuleSet = {
        var rules: [Rule] = []
        for pattern in patterns {
            guard let regex = try? Regex(pattern.regex) else { continue }
            rules.append(Rule(id: pattern.id, description: pattern.id, regex: regex, secretGroup: 1,
                              keywords: pattern.keywords))
        }
        return RuleSet(rules: rules)
    }()
}
