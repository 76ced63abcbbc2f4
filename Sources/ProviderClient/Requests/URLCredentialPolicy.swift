import Foundation

/// Keeps credentials out of URLs. URLs end up in server access logs, proxy logs, browser
/// history, crash reports and analytics; headers mostly do not.
enum URLCredentialPolicy {
    /// Checks that need no secret: user info and credential-named parameters in the query
    /// or fragment. Run before the store is even read.
    static func checkShape(of url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw RequestRefusal.invalidConfiguration("the URL cannot be parsed")
        }
        if components.user != nil || components.password != nil {
            throw RequestRefusal.credentialInURL(.userInfo)
        }
        for name in parameterNames(query: components.percentEncodedQuery) + parameterNames(query: components.percentEncodedFragment) {
            if let kind = SensitiveParameterKind(parameterName: name) {
                throw RequestRefusal.credentialInURL(.sensitiveParameter(kind))
            }
        }
    }

    /// Refuses a URL in which any of `secrets` occurs, raw or percent-encoded.
    static func check(_ url: URL, against secrets: CredentialScope) throws {
        let raw = url.absoluteString
        let decoded = raw.removingPercentEncoding ?? raw
        // `+` is a space in form-encoded queries; a key with spaces is not a key, but a
        // decoded `+` must not hide one.
        let plusDecoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
        if secrets.occurs(in: raw) || secrets.occurs(in: decoded) || secrets.occurs(in: plusDecoded) {
            throw RequestRefusal.credentialInURL(.credentialValue)
        }
    }

    /// Names of `a=b&c` style parameters, also `;`-separated, and fragment routes
    /// (`#/callback?access_token=...`): every `?`, `&` or `;` starts a parameter.
    static func parameterNames(query: String?) -> [String] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(whereSeparator: { $0 == "&" || $0 == ";" || $0 == "?" }).compactMap { pair in
            let name = String(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            let decoded = name.removingPercentEncoding ?? name
            return decoded.isEmpty ? nil : decoded
        }
    }
}
