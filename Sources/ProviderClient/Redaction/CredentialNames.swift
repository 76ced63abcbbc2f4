import Foundation

/// Names (of headers, URL parameters, analytics properties) that announce a credential.
/// One list, so the logger, the URL check, the redirect policy and analytics agree.
enum CredentialNames {
    /// Provider and HTTP auth headers, always redacted and always dropped on redirects
    /// to another origin.
    static let authHeaders: Set<String> = [
        "authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key",
        "anthropic-api-key", "openai-api-key", "x-auth-token", "x-access-token", "cookie", "set-cookie",
    ]

    /// Fragments that make any name look like it carries a credential. Broad on purpose:
    /// a false positive costs a `<redacted>` in a log, a false negative costs a key.
    static let fragments = ["key", "token", "secret", "auth", "passw", "pwd", "cookie", "session",
                            "signature", "credential", "bearer", "jwt", "sig"]

    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    static func looksSensitive(_ name: String) -> Bool {
        let plain = normalized(name)
        return fragments.contains { plain.contains($0) }
    }

    static func isCredentialHeader(_ name: String) -> Bool {
        authHeaders.contains(name.lowercased()) || looksSensitive(name)
    }
}

/// What kind of credential-like URL parameter a request was refused for; a closed set,
/// so the refusal never repeats text from the URL.
public enum SensitiveParameterKind: String, Sendable, Equatable {
    case key, token, secret, password, authorization, signature, session, credential

    init?(parameterName name: String) {
        let plain = CredentialNames.normalized(name)
        if plain.contains("passw") || plain == "pwd" { self = .password }
        else if plain.contains("secret") { self = .secret }
        else if plain.contains("token") || plain == "jwt" || plain.contains("bearer") { self = .token }
        else if plain.hasSuffix("key") || plain.hasPrefix("key") || plain.contains("apikey") { self = .key }
        else if plain.contains("auth") { self = .authorization }
        else if plain == "sig" || plain.contains("signature") { self = .signature }
        else if plain.contains("session") { self = .session }
        else if plain.contains("credential") { self = .credential }
        else { return nil }
    }
}
