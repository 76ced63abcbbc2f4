import Foundation

/// Which header values the logger must never write, and which headers a redirect to
/// another origin must drop: the auth headers every provider uses, the header the
/// connection's key goes into, its protected custom headers, the proxy app token header,
/// and any name that looks like a credential.
public struct SensitiveHeaders: Sendable, Equatable {
    /// Lowercased.
    public private(set) var names: Set<String>

    public init(_ names: some Sequence<String> = [String]()) {
        self.names = CredentialNames.authHeaders.union(names.map { $0.lowercased() })
    }

    public func contains(_ name: String) -> Bool {
        names.contains(name.lowercased()) || CredentialNames.looksSensitive(name)
    }

    public mutating func insert(_ name: String) {
        names.insert(name.lowercased())
    }

    /// Headers as they may be logged: sensitive values become `<redacted>`, the others
    /// go through free-text redaction. Sorted by name for stable output.
    public func redacted(_ headers: [String: String], with redactor: Redactor) -> [(name: String, value: RedactedText)] {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            let shownName = redactor.scrub(name)
            if contains(name) { return (shownName, RedactedText(checked: Redactor.placeholder)) }
            return (shownName, redactor.redact(value))
        }
    }
}
